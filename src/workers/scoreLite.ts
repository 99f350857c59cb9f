import { paperSummary } from '../core/scoring/paper/export.ts';
import { allRecords } from '../core/scoring/paper/lite.ts';
import { recordsCsv } from '../formats/scoreCsv.ts';
import type { ScoreResult } from './scoreHandler.ts';

/** The report files the page offers for download, built where the full records are. */
export function reportFiles(result: ScoreResult): { json: string; csv: string } {
  return {
    json: JSON.stringify({ summary: paperSummary(new Map(result.reports), result.problems), records: result.reports.flatMap(([, r]) => allRecords(r)) }, null, 1),
    csv: recordsCsv(result.reports),
  };
}
