// Runs inside headless Chromium for `npm run bench`: 100,000 predictions scored in the app's
// scoring worker (light rows back to the page), and the same on the page's main thread (the app's
// fallback, over the same pipeline), which must give the same report.
import type { Project } from '../../../src/core/project.ts';
import { LocalScoring } from '../../../src/features/scoring/app/scoreClient.ts';
import { DEFAULT_PAPER_SETTINGS, type PaperRequest } from '../../../src/core/scoring/pipeline.ts';
import type { LiteOutcome, ScoreWorkerReply, ScoreWorkerRequest } from '../../../src/core/scoring/workerProtocol.ts';

function inWorker(request: PaperRequest, w: Worker): Promise<LiteOutcome> {
  return new Promise((resolve, reject) => {
    w.onmessage = (e: MessageEvent<ScoreWorkerReply>) => {
      if (e.data.type === 'progress') return;
      if (e.data.type === 'done') resolve(e.data.result);
      else reject(new Error(e.data.type === 'error' ? e.data.message : e.data.type));
    };
    w.onerror = (e) => reject(new Error(e.message));
    w.postMessage({ type: 'score', request } satisfies ScoreWorkerRequest);
  });
}

(window as unknown as { runScoreBench: (base: string) => Promise<unknown> }).runScoreBench = async (base: string) => {
  const project = (await (await fetch(`${base}project.json`)).json()) as Project;
  const text = await (await fetch(`${base}predictions.jsonl`)).text();
  const req: PaperRequest = {
    mode: 'paper',
    project,
    input: { root: 'predictions.jsonl', files: [{ path: 'predictions.jsonl', text }] },
    settings: DEFAULT_PAPER_SETTINGS,
  };
  let t0 = performance.now();
  const main = await new LocalScoring().score(req, () => {});
  const mainMs = performance.now() - t0;
  // The app keeps its scoring worker between runs: the first run pays for starting it.
  const w = new Worker(new URL('../../../src/workers/score.worker.ts', import.meta.url), { type: 'module' });
  t0 = performance.now();
  const worker = await inWorker(req, w);
  const workerMs = performance.now() - t0;
  // Warm: the best of three runs, as the Node figures are taken.
  let warmMs = Infinity;
  for (let i = 0; i < 3; i++) {
    t0 = performance.now();
    await inWorker(req, w);
    warmMs = Math.min(warmMs, performance.now() - t0);
  }
  w.terminate();
  if (worker.mode !== 'paper' || main.mode !== 'paper') throw new Error('a paper-mode run returned another mode');
  const records = worker.reports.reduce((n, [, r]) => n + r.rows.length, 0);
  const headline = (r: typeof worker) => JSON.stringify(r.reports.map(([m, rep]) => [m, rep.headline, rep.confusion]));
  return { records, workerMs, warmMs, mainMs, agree: headline(worker) === headline(main) };
};
(window as unknown as { benchReady: boolean }).benchReady = true;
