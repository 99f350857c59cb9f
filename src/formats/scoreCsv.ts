import { csvTable } from './csv.ts';
import type { PaperReport, ScoredRecord } from '../core/scoring/paper/types.ts';

const COLUMNS: [string, (r: ScoredRecord) => unknown][] = [
  ['model', (r) => r.model],
  ['scene', (r) => r.scene],
  ['question_index', (r) => r.questionIndex],
  ['agent', (r) => r.agent],
  ['status', (r) => r.status],
  ['answer', (r) => r.answer ?? ''],
  ['answer_raw', (r) => r.answerRaw],
  ['gt_feasible', (r) => r.gtFeasible],
  ['outcome', (r) => r.outcome ?? ''],
  ['path', (r) => r.pathTokens.join(' -> ')],
  ['path_valid', (r) => r.pathValid],
  ['path_errors', (r) => r.pathErrors.map((e) => e.kind).join(';')],
  ['rta', (r) => r.rta],
  ['rv', (r) => r.rv],
  ['judge', (r) => r.judge?.judge ?? ''],
  ['obstacles', (r) => r.obstacleTypes.join(';')],
  ['failure_modes', (r) => r.failureModes.join(';')],
  ['reason', (r) => r.reason],
  ['question', (r) => r.question],
  ['file', (r) => r.file],
  ['location', (r) => r.location],
];

/** Every scored record of every model as CSV, one row each (unmatched records included, by status). */
export function recordsCsv(reports: readonly [string, PaperReport][]): string {
  return recordListCsv(reports.flatMap(([, report]) => [...report.records, ...report.unmatched, ...report.excluded]));
}

/** These records as CSV, in the given order (the Score view's filtered export). */
export function recordListCsv(records: readonly ScoredRecord[]): string {
  return csvTable(
    COLUMNS.map(([h]) => h),
    records.map((r) => COLUMNS.map(([, f]) => f(r))),
  );
}
