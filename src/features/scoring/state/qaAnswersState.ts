import type { Problem } from '../../../core/problems.ts';
import type { ImportedTrailScores } from '../../../core/scoring/judges/trail.ts';
import type { QaAnswersReport, QaPrediction, SameModel } from '../../../core/scoring/vqa/qaAnswers.ts';
import type { FomerReport, TrailSubsets } from '../../../core/scoring/vqa/trails.ts';
import { registerSlice } from '../../../state/store.ts';

/**
 * Scoring a model's answers to the project's accepted QA items (the Score view's "QA answers"
 * section). Session data: the answers loaded, the settings and the last report; exported on demand.
 */
export interface QaAnswersState {
  /** Names of the answer files loaded, and what was read from them. */
  files: string[];
  predictions: QaPrediction[];
  readProblems: Problem[];
  /** Files that named the same model: each is scored as its own model. */
  sameModel: SameModel[];
  settings: {
    /** One τ for every numeric item; null: each item's own tolerance. */
    tau: number | null;
    averaging: 'micro' | 'macro';
    bootstrap: number;
    /** What FoMER's macro averages over. */
    subsets: TrailSubsets;
  };
  /**
   * The judge of the answers' reasoning steps (FoMER RA): none, imported scores (a file read into
   * entries), or the HTTP judge (the Score view's endpoint and model; the key stays in localStorage).
   */
  reasoning: {
    judge: 'none' | 'imported' | 'http';
    scores: { file: string; name: string; entries: ImportedTrailScores[] } | null;
    problems: Problem[];
    /** The HTTP judge's progress while it runs; null when idle. */
    judging: { done: number; total: number } | null;
    /** Why the last HTTP judging could not start, if it could not. */
    error: string | null;
  };
  report: QaAnswersReport | null;
  /** FoMER's RA/FA of the report's models; null without a reasoning judge (or while it judges). */
  fomer: FomerReport | null;
  /** How long the last scoring took on the main thread, milliseconds. */
  elapsedMs: number | null;
  selectedModel: string | null;
  /** The per-item table: search text, and whether to show only items that did not score 100. */
  filter: { text: string; onlyLost: boolean };
}

export function initialQaAnswers(): QaAnswersState {
  return {
    files: [],
    predictions: [],
    readProblems: [],
    sameModel: [],
    settings: { tau: null, averaging: 'macro', bootstrap: 0, subsets: 'source' },
    reasoning: { judge: 'none', scores: null, problems: [], judging: null, error: null },
    report: null,
    fomer: null,
    elapsedMs: null,
    selectedModel: null,
    filter: { text: '', onlyLost: false },
  };
}

// Scoring answers to the QA items is session data of the Score view (exported on demand, never stored).
declare module '../../../state/store.ts' {
  interface FeatureSlices {
    qaAnswers: QaAnswersState;
  }
}
registerSlice('qaAnswers', 'session', initialQaAnswers);
