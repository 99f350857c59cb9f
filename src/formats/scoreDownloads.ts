import { paperSummary } from '../core/scoring/paper/export.ts';
import { allRecords } from '../core/scoring/paper/lite.ts';
import type { PaperOutcome } from '../core/scoring/pipeline.ts';
import type { ReportFiles } from '../core/scoring/workerProtocol.ts';
import { recordsCsv } from './scoreCsv.ts';

/** The Score view's downloads: the summary with every record as JSON, and the records as CSV. */
export function reportFiles(outcome: PaperOutcome): ReportFiles {
  return {
    json: JSON.stringify({ summary: paperSummary(new Map(outcome.reports), outcome.problems), records: outcome.reports.flatMap(([, r]) => allRecords(r)) }, null, 1),
    csv: recordsCsv(outcome.reports),
  };
}
