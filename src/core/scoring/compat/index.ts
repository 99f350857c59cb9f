/** Reference-compatible CapNav scoring (`--compat reference`): the released Python scorer, reproduced. */
export { scoreReference } from './score.ts';
export { toJsonl, toSummaryJson } from './serialize.ts';
export { groundTruthFromRelease, type GroundTruthRead } from './groundTruth.ts';
export type {
  BinaryBucket, CompatGroundTruth, CompatInputFile, CompatJudge, CompatLabel, CompatOptions, CompatRecord, CompatResult,
  CompatSceneTruth, CompatSummary, DeriveMethod, FailReason, FormatErrorType,
} from './types.ts';
