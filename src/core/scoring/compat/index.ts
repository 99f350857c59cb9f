/** Reference-compatible CapNav scoring (`--compat reference`): the released Python scorer, reproduced. */
export {
  compareParts,
  comparePaths,
  folderSettings,
  ReferenceScorer,
  releasedScorerReads,
  scoreAll,
  scoreReference,
  summariseFolder,
  summarySettings,
} from './score.ts';
export { compatSummaries, modelFolders, modelSummaryName, pooledRowName, REFERENCE_COLUMNS, referenceRows, type CompatSummaries } from './folders.ts';
export { SummaryCounter, type SummarySettings } from './summary.ts';
export { recordLine, toJsonl, toSummaryJson, writeRecordLine } from './serialize.ts';
export { groundTruthFromRelease, type GroundTruthRead } from './groundTruth.ts';
export type {
  BinaryBucket,
  CompatFailedRecord,
  CompatFileOutcome,
  CompatFormatErrorRecord,
  CompatGroundTruth,
  CompatInputFile,
  CompatJudge,
  CompatLabel,
  CompatOptions,
  CompatParsedRecord,
  CompatRecord,
  CompatRecordBase,
  CompatResult,
  CompatSceneTruth,
  CompatSettings,
  CompatSummary,
  DeriveMethod,
  FileFailReason,
  FormatErrorType,
  RecordFailReason,
} from './types.ts';
