/**
 * The scoring worker's typed protocol, shared by the worker shell (src/workers/scoreHandler.ts)
 * and the page's client (src/features/scoring/app/scoreClient.ts), and what crosses it. Paper reports cross as
 * light rows in typed-array columns (transferred, not copied); the full records stay where they
 * were scored and are fetched one at a time.
 */
import type { Problem } from '../problems.ts';
import { allRecords, columnBuffers, liteResult, type LiteReport } from './paper/lite.ts';
import type { ScoredRecord } from './paper/types.ts';
import type { CompatOutcome, ScoringOutcome, ScoringProgress, ScoringRequest } from './pipeline.ts';

/** The report files the Score view offers for download (paper mode), built where the full records are. */
export interface ReportFiles {
  json: string;
  csv: string;
}

/** A filtered export: one model's records at these positions of its light rows, and the filter that chose them (written into the JSON). */
export interface ExportSelection {
  model: string;
  indices: number[];
  filter: Record<string, string>;
}

export type LiteOutcome = { mode: 'paper'; reports: [string, LiteReport][]; problems: Problem[] } | CompatOutcome;

export type ScoreWorkerRequest =
  | { type: 'score'; request: ScoringRequest }
  /** Record `i` of a model, in the order of its light rows. */
  | { type: 'record'; model: string; i: number; ticket: number }
  | { type: 'export'; ticket: number; only?: ExportSelection };

export type ScoreWorkerReply =
  | { type: 'progress'; progress: ScoringProgress }
  | { type: 'done'; result: LiteOutcome }
  /** A request failed; `ticket` names the record or export request it answers (absent: the run). */
  | { type: 'error'; message: string; ticket?: number }
  | { type: 'record'; ticket: number; record: ScoredRecord | null }
  | { type: 'export'; ticket: number; files: ReportFiles | null };

/** What the page is sent of an outcome. */
export function liteOutcome(outcome: ScoringOutcome): LiteOutcome {
  return outcome.mode === 'paper' ? { mode: 'paper', ...liteResult(outcome) } : outcome;
}

/** The buffers of a light outcome to transfer rather than copy. */
export function outcomeBuffers(lite: LiteOutcome): ArrayBuffer[] {
  return lite.mode === 'paper' ? lite.reports.flatMap(([, r]) => columnBuffers(r.rows)) : [];
}

/** A model's record `i` in full (the preview's hops, errors, judge), or null. */
export function recordAt(outcome: ScoringOutcome | null, model: string, i: number): ScoredRecord | null {
  const report = outcome?.mode === 'paper' ? outcome.reports.find(([m]) => m === model)?.[1] : undefined;
  return report ? (allRecords(report)[i] ?? null) : null;
}
