// Runs inside headless Chromium for `npm run bench`: 100,000 predictions scored in the app's
// scoring worker (light rows back to the page), and the same on the page's main thread, which
// must give the same report.
import type { Project } from '../../../src/core/project.ts';
import type { ScoreRequest } from '../../../src/workers/scoreHandler.ts';
import { liteResult, type LiteResult } from '../../../src/core/scoring/paper/lite.ts';
import { runScoring } from '../../../src/workers/scoreHandler.ts';

function inWorker(req: ScoreRequest, w: Worker): Promise<LiteResult> {
  return new Promise((resolve, reject) => {
    w.onmessage = (e: MessageEvent<{ type: string; result?: LiteResult; message?: string }>) => {
      if (e.data.type === 'progress') return;
      if (e.data.type === 'done') resolve(e.data.result!); else reject(new Error(e.data.message));
    };
    w.onerror = (e) => reject(new Error(e.message));
    w.postMessage({ type: 'score', request: req });
  });
}

(window as unknown as { runScoreBench: (base: string) => Promise<unknown> }).runScoreBench = async (base: string) => {
  const project = (await (await fetch(`${base}project.json`)).json()) as Project;
  const text = await (await fetch(`${base}predictions.jsonl`)).text();
  const req: ScoreRequest = { project, files: [{ path: 'predictions.jsonl', text }], judge: { kind: 'rule' }, weights: { f1: 0.25, pv: 0.25, rta: 0.25, rv: 0.25 }, averaging: 'micro', bootstrap: 0 };
  let t0 = performance.now();
  const main = liteResult(await runScoring(req));
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
  const records = worker.reports.reduce((n, [, r]) => n + r.rows.length, 0);
  const headline = (r: LiteResult) => JSON.stringify(r.reports.map(([m, rep]) => [m, rep.headline, rep.confusion]));
  return { records, workerMs, warmMs, mainMs, agree: headline(worker) === headline(main) };
};
(window as unknown as { benchReady: boolean }).benchReady = true;
