// Thin worker shell: scoring runs here so the page stays responsive on 100,000 predictions.
import type { ScoreWorkerRequest } from '../core/scoring/workerProtocol.ts';
import { scoreHandler } from './scoreHandler.ts';

const handle = scoreHandler({ postMessage: (message, transfer) => self.postMessage(message, { transfer }) });
self.onmessage = (e: MessageEvent<ScoreWorkerRequest>) => void handle(e.data);
