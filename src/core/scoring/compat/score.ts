import { pyCompare } from './pyText.ts';
import { joinPath, Scenes, scoreFile, type FileContext } from './records.ts';
import { summarise, type SummarySettings } from './summary.ts';
import type { CompatFileOutcome, CompatGroundTruth, CompatInputFile, CompatOptions, CompatResult, CompatSettings } from './types.ts';

/** The names the released scorer never reads: its own outputs. */
const OWN_OUTPUTS = new Set(['scored_summary.json', 'scored_per_record.jsonl']);
const SKIPPED_SUFFIXES = ['_results.json', '_failed.json', '_summary.json'];

/**
 * Whether the released scorer reads this file (`discover_record_files`): every `*.json` under the
 * results root (the suffix matched case-sensitively, as `rglob` does on Linux) except its own
 * outputs, names starting with `_`, and names ending in `_results.json`, `_failed.json` or
 * `_summary.json` (aggregate roll-ups).
 */
export function releasedScorerReads(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.endsWith('.json') && !OWN_OUTPUTS.has(name) && !name.startsWith('_') && !SKIPPED_SUFFIXES.some((s) => name.endsWith(s));
}

/** `sorted()` of `Path`s: component lists compared item by item, so `a/b.json` comes before `a-b/c.json`. */
export function comparePaths(a: string, b: string): number {
  return compareParts(a.split('/'), b.split('/'));
}

/** `comparePaths` of paths already split into components. */
export function compareParts(pa: readonly string[], pb: readonly string[]): number {
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const c = pyCompare(pa[i]!, pb[i]!);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

/** The settings with the released scorer's defaults filled in. */
export function summarySettings(s: CompatSettings = {}): SummarySettings {
  const resultRoot = s.resultRoot ?? 'results';
  return {
    resultRoot,
    gtRoot: s.gtRoot ?? 'ground_truth',
    rvModel: s.rvModel ?? 'none',
    perRecordOutput: s.perRecordOutput ?? joinPath(resultRoot, 'scored_per_record.jsonl'),
  };
}

/**
 * The released scorer, one file at a time: the caller hands files in `comparePaths` order (the
 * order fixes the record order and hence the float sums) and keeps what it needs of each outcome.
 */
export class ReferenceScorer {
  readonly settings: SummarySettings;
  readonly unreadable: CompatResult['unreadable'] = [];
  private readonly ctx: FileContext;

  constructor(groundTruth: CompatGroundTruth, options: CompatOptions = {}) {
    this.settings = summarySettings(options);
    this.ctx = {
      scenes: new Scenes(groundTruth),
      judge: options.judge ?? (() => 0),
      resultRoot: this.settings.resultRoot,
      rvModel: this.settings.rvModel,
      unreadable: this.unreadable,
    };
  }

  score(file: CompatInputFile): CompatFileOutcome {
    return scoreFile(file, this.ctx);
  }
}

/**
 * Score a results folder the way the released CapNav Python scorer does (docs/scoring.md §2),
 * quirks included. `files` are the files under the results root (paths relative to it); those the
 * released scorer would not read are left out, the others read in its `sorted()` order.
 */
export function scoreReference(files: readonly CompatInputFile[], groundTruth: CompatGroundTruth, options: CompatOptions = {}): CompatResult {
  return scoreAll(new ReferenceScorer(groundTruth, options), files);
}

/** Every file a scorer reads, in its order, everything kept. */
export function scoreAll(scorer: ReferenceScorer, files: readonly CompatInputFile[]): CompatResult {
  const read = files.filter((f) => releasedScorerReads(f.path)).sort((a, b) => comparePaths(a.path, b.path));
  const outcomes: CompatFileOutcome[] = read.map((f) => scorer.score(f));
  return { records: outcomes.flatMap((o) => o.records), summary: summarise(outcomes, scorer.settings), files: outcomes, unreadable: scorer.unreadable };
}

/** The settings of a run on one folder of the results root (`<root>/<folder>`), as the released scorer would name its paths. */
export function folderSettings(settings: SummarySettings, folder: string, perRecordOutput?: string): SummarySettings {
  const resultRoot = joinPath(settings.resultRoot, folder);
  return { ...settings, resultRoot, perRecordOutput: perRecordOutput ?? joinPath(resultRoot, 'scored_per_record.jsonl') };
}

/**
 * The summary the released scorer writes when run on one folder of the results root (a model's
 * folder, `<root>/<model>`): the same records, since a record does not depend on the other files,
 * with that folder's counts, floats summed in the same order, and paths.
 */
export function summariseFolder(result: CompatResult, folder: string, options: CompatSettings = {}): CompatResult['summary'] {
  const prefix = `${folder}/`;
  return summarise(
    result.files.filter((f) => f.path.startsWith(prefix)),
    folderSettings(summarySettings(options), folder, options.perRecordOutput),
  );
}
