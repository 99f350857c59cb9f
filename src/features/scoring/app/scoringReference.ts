import type { Project } from '../../../core/project.ts';
import { compatSummaries, modelSummaryName, releasedScorerReads, toJsonl, toSummaryJson, type CompatResult } from '../../../core/scoring/compat/index.ts';
import { COMPAT_JUDGE_NAMES, type CompatJudgeChoice } from '../../../core/scoring/compat/run.ts';
import type { CompatOutcome, CompatRequest } from '../../../core/scoring/pipeline.ts';
import { writeRelease } from '../../../formats/capnav/write.ts';
import type { CompatView, ScoringState } from '../../../state/store.ts';

/**
 * A run under the released scorer's conventions (`traversa score --compat reference`): the
 * project written as a release is the ground truth (only its graphs and traverse tables are
 * read), the loaded folder is the results root and names the paths the scorer writes.
 */
export function referenceRequest(project: Project, scoring: Pick<ScoringState, 'files' | 'root'>, judge: CompatJudgeChoice): CompatRequest {
  const root = scoring.root || 'results';
  return {
    mode: 'compat',
    release: writeRelease(project),
    input: { root, files: scoring.files },
    judge,
    settings: { resultRoot: root, gtRoot: 'ground_truth', perRecordOutput: `${root}/scored_per_record.jsonl` },
  };
}

/** What the Score view shows of a reference run. */
export function referenceView(outcome: CompatOutcome, request: CompatRequest): CompatView {
  return {
    root: request.input.root,
    summaries: compatSummaries(outcome.result),
    judge: COMPAT_JUDGE_NAMES[request.judge.kind],
    unreadable: outcome.result.unreadable,
    truthProblems: outcome.truthProblems,
    notRead: request.input.files.map((f) => f.path).filter((p) => !releasedScorerReads(p)),
  };
}

/** The files `score --compat reference` writes: the per-record JSONL, the pooled summary, and one summary per model folder. */
export function referenceFiles(result: CompatResult, view: CompatView): { name: string; text: string; type: string }[] {
  return [
    { name: 'scored_per_record.jsonl', text: toJsonl(result.records), type: 'application/x-ndjson' },
    { name: 'scored_summary.json', text: toSummaryJson(view.summaries.pooled), type: 'application/json' },
    ...view.summaries.perModel.map(([m, s]) => ({ name: modelSummaryName(m), text: toSummaryJson(s), type: 'application/json' })),
  ];
}
