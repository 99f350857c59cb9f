import { paperSummary } from '../core/scoring/paper/export.ts';
import { allRecords } from '../core/scoring/paper/lite.ts';
import type { PaperOutcome } from '../core/scoring/pipeline.ts';
import type { ExportSelection, ReportFiles } from '../core/scoring/workerProtocol.ts';
import { recordListCsv, recordsCsv } from './scoreCsv.ts';

/**
 * The Score view's downloads: the summary with every record as JSON, and the records as CSV.
 * With a selection (the record table filtered), only the records it shows — the selected
 * model's, in the table's order — with the filter written into the JSON beside the summary.
 */
export function reportFiles(outcome: PaperOutcome, only?: ExportSelection): ReportFiles {
  if (only) {
    const report = outcome.reports.find(([m]) => m === only.model)?.[1];
    const all = report ? allRecords(report) : [];
    const records = only.indices.map((i) => all[i]).filter((r) => r !== undefined);
    return {
      json: JSON.stringify(
        { summary: paperSummary(new Map(outcome.reports), outcome.problems), filter: { ...only.filter, model: only.model, records: records.length }, records },
        null,
        1,
      ),
      csv: recordListCsv(records),
    };
  }
  return {
    json: JSON.stringify(
      { summary: paperSummary(new Map(outcome.reports), outcome.problems), records: outcome.reports.flatMap(([, r]) => allRecords(r)) },
      null,
      1,
    ),
    csv: recordsCsv(outcome.reports),
  };
}
