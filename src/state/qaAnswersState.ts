import type { Problem } from '../core/problems.ts';
import type { QaAnswersReport, QaPrediction } from '../core/scoring/vqa/qaAnswers.ts';

/**
 * Scoring a model's answers to the project's accepted QA items (the Score view's "QA answers"
 * section). Session data: the answers loaded, the settings and the last report; exported on demand.
 */
export interface QaAnswersState {
  /** Names of the answer files loaded, and what was read from them. */
  files: string[];
  predictions: QaPrediction[];
  readProblems: Problem[];
  settings: {
    /** One τ for every numeric item; null: each item's own tolerance. */
    tau: number | null;
    averaging: 'micro' | 'macro';
    bootstrap: number;
  };
  report: QaAnswersReport | null;
  /** How long the last scoring took on the main thread, milliseconds. */
  elapsedMs: number | null;
  selectedModel: string | null;
  /** The per-item table: search text, and whether to show only items that did not score 100. */
  filter: { text: string; onlyLost: boolean };
}

export function initialQaAnswers(): QaAnswersState {
  return {
    files: [], predictions: [], readProblems: [],
    settings: { tau: null, averaging: 'macro', bootstrap: 0 },
    report: null, elapsedMs: null, selectedModel: null, filter: { text: '', onlyLost: false },
  };
}
