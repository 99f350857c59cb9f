// Thin worker shell: scoring runs here so the page stays responsive on 100,000 predictions.
import { serve, type WorkerScopeLike } from '../engine/workerPort.ts';
import { scoreService } from './scoreHandler.ts';

serve(self as unknown as WorkerScopeLike, scoreService);
