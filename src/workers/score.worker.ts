// Thin worker shell: scoring runs here so the page stays responsive on 100,000 predictions. The
// full records stay here; the page gets light rows and asks for a record when one is opened.
import { allRecords, columnBuffers, liteResult } from '../core/scoring/paper/lite.ts';
import { reportFiles } from './scoreLite.ts';
import { runScoring, type ScoreRequest, type ScoreResult } from './scoreHandler.ts';

export type ScoreWorkerRequest =
  | { type: 'score'; request: ScoreRequest }
  | { type: 'record'; model: string; i: number; ticket: number }
  | { type: 'export'; ticket: number };

let last: ScoreResult | null = null;

self.onmessage = async (e: MessageEvent<ScoreWorkerRequest>) => {
  const m = e.data;
  try {
    if (m.type === 'score') {
      last = await runScoring(m.request, (progress) => self.postMessage({ type: 'progress', progress }));
      const result = liteResult(last);
      // The row columns' buffers are transferred, not copied.
      self.postMessage({ type: 'done', result }, { transfer: result.reports.flatMap(([, r]) => columnBuffers(r.rows)) });
    } else if (m.type === 'record') {
      const report = last?.reports.find(([model]) => model === m.model)?.[1];
      self.postMessage({ type: 'record', ticket: m.ticket, record: report ? allRecords(report)[m.i] ?? null : null });
    } else if (m.type === 'export') {
      self.postMessage({ type: 'export', ticket: m.ticket, files: last ? reportFiles(last) : null });
    }
  } catch (err) {
    self.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
};
