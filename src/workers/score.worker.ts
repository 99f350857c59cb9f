// Thin worker shell: scoring runs here so the page stays responsive on 100,000 predictions.
import { runScoring, type ScoreRequest } from './scoreHandler.ts';

self.onmessage = async (e: MessageEvent<ScoreRequest>) => {
  try {
    const result = await runScoring(e.data, (progress) => self.postMessage({ type: 'progress', progress }));
    self.postMessage({ type: 'done', result });
  } catch (err) {
    self.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
};
