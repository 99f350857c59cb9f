import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  compareParts,
  folderSettings,
  modelFolders,
  modelSummaryName,
  releasedScorerReads,
  toSummaryJson,
  type CompatSummary,
} from '../core/scoring/compat/index.ts';
import { referenceScorer, type CompatJudgeChoice } from '../core/scoring/compat/run.ts';
import type { CompatInputFile } from '../core/scoring/compat/types.ts';
import { InputError, makeFolder, readTree, statInput, writeOutput } from './files.ts';
import { scoreFiles } from './scoreCompatFiles.ts';
import { formatReferenceSummary } from './scoreTables.ts';

/** What `--compat reference` reads, in the words of every refusal. */
export const COMPAT_LAYOUT = 'a CapNav results folder, results/<model>/<SCENE>/<SCENE>_<AGENT>.json, as the released scorer does';

/** Prediction files compat mode does not read, by what a user would have meant them as. */
const OTHER_PREDICTIONS = /\.(jsonl|txt|json)$/i;

export interface CompatInput {
  /** Paths (relative to the root, `/`-separated) of the files the released scorer reads, in its reading order. */
  paths: string[];
  /** Files that look like predictions but the released scorer does not read (Traversa JSONL, text, `*.JSON`). */
  skipped: string[];
}

/**
 * The files under the results root the released scorer reads (every `*.json` but its outputs and
 * roll-ups), in its order; read them with `readResultFile`. A single file, or a folder with
 * nothing to read, is refused: scoring it would give one failed record and zeros (the released
 * scorer stops with "No *.json record files found"). Links to folders are not followed, as
 * everywhere on the command line.
 */
export function findCompatInput(root: string): CompatInput {
  if (!statInput(root, 'predictions').isDirectory()) {
    const kind = /\.jsonl$/i.test(root) ? 'a JSONL prediction file' : 'a file';
    throw new InputError(`${root}: --compat reference reads ${COMPAT_LAYOUT}; this is ${kind}, not a results folder (score it without --compat reference)`);
  }
  const paths: string[] = [],
    skipped: string[] = [];
  const walk = (dir: string, rel: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      throw new InputError(`${dir}: the folder cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    for (const entry of entries) {
      const path = rel + entry.name;
      if (entry.isDirectory()) {
        walk(join(dir, entry.name), `${path}/`);
        continue;
      }
      if (entry.isSymbolicLink() && isFolder(join(dir, entry.name))) {
        process.stderr.write(`traversa: note: ${join(dir, entry.name)} is a link to a folder; not followed\n`);
      } else if (releasedScorerReads(path)) paths.push(path);
      // Summaries (the scorer's own, run-model's run_summary.json) are no one's predictions: not worth a note.
      else if (OTHER_PREDICTIONS.test(entry.name) && !/^scored_/.test(entry.name) && !entry.name.endsWith('_summary.json')) skipped.push(path);
    }
  };
  walk(root, '');
  if (paths.length === 0) {
    const seen = skipped.length
      ? `; it holds ${count(skipped.length, 'other prediction file')} (${skipped[0]}${skipped.length > 1 ? ', …' : ''}), which compat mode does not read (score them without --compat reference)`
      : '';
    throw new InputError(`${root}: no *.json result files to score: --compat reference reads ${COMPAT_LAYOUT}${seen}`);
  }
  // Sorted as Paths sort (by component); each split once.
  const keyed = paths.map((p) => ({ p, parts: p.split('/') }));
  keyed.sort((x, y) => compareParts(x.parts, y.parts));
  return { paths: keyed.map((k) => k.p), skipped };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The release files the released scorer reads: `<SCENE>-graph.json` and `<SCENE>-traverse.json`. */
function readGroundTruthFiles(gt: string): CompatInputFile[] {
  if (!statInput(gt, 'release').isDirectory()) throw new InputError(`${gt}: the release cannot be read (not a folder)`);
  return readTree(gt, ['-graph.json', '-traverse.json'], 'release file');
}

/**
 * `score --compat reference`: the released scorer's per-record JSONL and summary for the whole
 * root (pooled, as it prints them), and when the root holds several model folders, one summary
 * per model (what it prints when run on that folder). Files are read, scored, written into the
 * output and let go one at a time: a run keeps counters, not records. (Splitting the files
 * between two threads was measured: on these machines two threads each took 75–85 % of the time
 * one thread took for all, and the second thread's start and the joining ate the rest.)
 * Returns what goes to stdout.
 */
export function scoreCompat(args: { json: boolean }, gt: string, pred: string, out: string, judge: CompatJudgeChoice): string {
  const input = findCompatInput(pred);
  const release = readGroundTruthFiles(gt);
  makeFolder(out);
  const settings = { resultRoot: resolve(pred), gtRoot: resolve(gt), perRecordOutput: resolve(out, 'scored_per_record.jsonl') };
  const { scorer, truthProblems } = referenceScorer({ release, judge, root: pred, settings });
  for (const p of truthProblems) process.stderr.write(`${p.path}: ${p.message}\n`);

  const models = modelFolders(input.paths);
  const summarised = models.length >= 2 ? models : [];
  const result = scoreFiles(pred, input.paths, summarised, scorer, join(out, 'scored_per_record.jsonl'));
  for (const f of scorer.unreadable)
    process.stderr.write(`traversa: ${f.path}: not valid JSON for the released scorer: ${f.message}; counted as one failed record (invalid_json)\n`);
  if (input.skipped.length) {
    process.stderr.write(
      `traversa: note: --compat reference reads only *.json result files, as the released scorer does; ${count(input.skipped.length, 'other file')} under ${pred} not read (${input.skipped[0]}${input.skipped.length > 1 ? ', …' : ''})\n`,
    );
  }
  for (const [model, n] of result.repeats) {
    process.stderr.write(
      `traversa: ${count(n, 'record')} of model ${model} repeat a scene, agent and question given before; all are scored, as the released scorer does (see docs/scoring.md, "Duplicate predictions")\n`,
    );
  }
  const { pooled, perModel } = result;

  const summary = pooled.summary(scorer.settings);
  const summaryText = toSummaryJson(summary);
  writeOutput(join(out, 'scored_summary.json'), summaryText);
  // Each model's per_record_output is the pooled file: its records are there, named by model_setting.
  const modelSummaries: [string, CompatSummary][] = perModel.map(([m, c]) => [
    m,
    c.summary(folderSettings(scorer.settings, m, scorer.settings.perRecordOutput)),
  ]);
  for (const [m, s] of modelSummaries) writeOutput(join(out, modelSummaryName(m)), toSummaryJson(s));
  if (args.json) {
    if (modelSummaries.length)
      process.stderr.write(
        `traversa: printed: the pooled summary of all ${modelSummaries.length} models (scored_summary.json); one summary per model in ${out}: ${modelSummaries.map(([m]) => modelSummaryName(m)).join(', ')}\n`,
      );
    return summaryText;
  }
  return formatReferenceSummary(summary, modelSummaries, pred);
}

const count = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
