import { basename, join, resolve } from 'node:path';
import { formatProblem } from '../core/problems.ts';
import type { Project } from '../core/project.ts';
import { oracleBaseline, randomWalkBaseline } from '../core/scoring/baselines.ts';
import type { HttpJudgeIo, JudgeChoice } from '../core/scoring/judges/choose.ts';
import { paperRecordsJsonl, paperSummary } from '../core/scoring/paper/export.ts';
import type { PaperReport, Weights } from '../core/scoring/paper/types.ts';
import { DEFAULT_PAPER_SETTINGS, runScoring, type PaperOutcome, type PaperRequest, type ScoringInput } from '../core/scoring/pipeline.ts';
import { unlabelledScenes, unlabelledText } from '../core/scoring/unlabelled.ts';
import { readRelease } from '../formats/capnav/read.ts';
import { toPredictionJsonl } from '../formats/predictions/jsonl.ts';
import { predictionReaders } from '../formats/predictions/read.ts';
import { InputError, makeFolder, readJsonFiles, readTree, writeOutput } from './files.ts';
import type { SourceFile } from '../formats/json.ts';
import { formatPaperSummary } from './scoreTables.ts';
import { agentOrder } from '../core/agents.ts';
import { table2, table2Title } from '../core/scoring/paper/table2.ts';
import { table2Csv, table2Latex } from '../formats/table2.ts';

/**
 * Paper mode and the baselines: everything of `score` that needs the release read as a project.
 * Loaded only when asked for (`score` without `--compat reference`, `baseline`), so the released
 * scorer's mode starts without it.
 */

/**
 * One warning per scene whose ground truth has no label for some agents (core/scoring/unlabelled.ts),
 * said once the outputs are written, so a command that fails says only why it failed.
 */
function warnUnlabelled(project: Project): void {
  for (const u of unlabelledScenes(project)) {
    process.stderr.write(
      `traversa: warning: ${unlabelledText(u)} (nothing labelled yet, or no traverse file): a segment without a label counts as not traversable, so every route there is scored as not doable for ${u.agents.length === 1 ? 'it' : 'them'}\n`,
    );
  }
}

const loadProject = (dir: string): Project => readTruth(dir).project;

/** The release as a project, and its files (a shard of a run records their checksum). */
export function readTruth(dir: string): { project: Project; files: SourceFile[] } {
  const files = readJsonFiles(dir);
  // Named after its folder, as the studio names an imported release (Table 2's title names it).
  const { project, problems } = readRelease(files, basename(resolve(dir)));
  if (!project) {
    for (const p of problems.filter((q) => q.severity === 'fatal')) process.stderr.write(formatProblem(p) + '\n');
    throw new InputError(`${dir} cannot be read as a CapNav release (run "validate" for every problem)`);
  }
  return { project, files };
}

export interface PaperArgs {
  gt: string;
  pred: string;
  out: string;
  json: boolean;
  weights: Weights;
  judge: JudgeChoice;
  http?: HttpJudgeIo;
  /** Unset: the defaults of DEFAULT_PAPER_SETTINGS. */
  averaging?: 'micro' | 'macro';
  resamples: number;
  seed?: number;
  level?: number;
  /** `--accept-unjudged`: an incomplete score (the judge failed on some records) exits 0. */
  acceptUnjudged: boolean;
  /** `--table2`: also write the paper's Table 2 as table2.csv and table2.tex. */
  table2?: boolean;
}

/**
 * `score` in paper mode: what goes to stdout, and the exit code — 1 when the judge failed on some
 * records (RV and the composite are withheld) unless the user accepts that with --accept-unjudged.
 */
export async function scorePaper(a: PaperArgs): Promise<{ text: string; code: number }> {
  const { project } = readTruth(a.gt);
  makeFolder(a.out);
  const request = scoringRequest(a, project);
  return writePaperOutcome(project, await runScoring(request, predictionReaders, { http: a.http }), a);
}

/** What `score` asks of the pipeline: the predictions under `--pred` and the settings, defaults filled in. */
export function scoringRequest(a: PaperArgs, project: Project): PaperRequest {
  const defaults = DEFAULT_PAPER_SETTINGS;
  const bootstrap = { resamples: a.resamples, seed: a.seed ?? defaults.bootstrap.seed, level: a.level ?? defaults.bootstrap.level };
  return {
    mode: 'paper',
    project,
    input: predictionsUnder(a.pred),
    settings: { judge: a.judge, weights: a.weights, averaging: a.averaging ?? defaults.averaging, bootstrap },
  };
}

/** What one run writes into `--out` (scored_per_record.jsonl, scored_summary.json, Table 2), says on stderr, prints and exits with. */
export function writePaperOutcome(project: Project, outcome: PaperOutcome, a: Pick<PaperArgs, 'out' | 'json' | 'table2' | 'acceptUnjudged' | 'pred'>) {
  if (outcome.reports.length === 0) process.stderr.write(`traversa: no predictions found under ${a.pred}\n`);
  const reports = new Map(outcome.reports);
  const summary = paperSummary(reports, outcome.problems);
  writeOutput(join(a.out, 'scored_per_record.jsonl'), paperRecordsJsonl(reports));
  writeOutput(join(a.out, 'scored_summary.json'), JSON.stringify(summary, null, 2) + '\n');
  if (a.table2) {
    const t = table2([...reports], agentOrder(project.profiles));
    const title = table2Title(project.name, [...reports.keys()], [...reports.values()][0]?.settings);
    writeOutput(join(a.out, 'table2.csv'), table2Csv(t, title));
    writeOutput(join(a.out, 'table2.tex'), table2Latex(t, title));
    process.stderr.write(`traversa: wrote Table 2 as ${join(a.out, 'table2.csv')} and ${join(a.out, 'table2.tex')}\n`);
  }
  warnUnlabelled(project);
  const repeats = reportDuplicates(reports, join(a.out, 'scored_summary.json'));
  const others = summary.problems.length - repeats;
  if (others)
    process.stderr.write(`traversa: ${others} ${repeats ? 'other ' : ''}problem(s) with the predictions; listed in ${join(a.out, 'scored_summary.json')}\n`);
  const text = a.json ? JSON.stringify(summary, null, 2) : formatPaperSummary(summary);
  if (summary.unjudged === 0) return { text, code: 0 };
  process.stderr.write(
    `traversa: the score is incomplete: the judge could not judge ${summary.unjudged} record(s), so RV and the CapNav composite are withheld` +
      ` (each record says why in ${join(a.out, 'scored_per_record.jsonl')}). ${a.acceptUnjudged ? 'Accepted with --accept-unjudged.' : 'Run again when the judge works (its verdicts so far are cached), or pass --accept-unjudged to accept an incomplete score.'}\n`,
  );
  return { text, code: a.acceptUnjudged ? 0 : 1 };
}

/**
 * A (model, scene, question, agent) predicted more than once — say a JSONL file and a results
 * folder for one model — is scored every time, as the released scorer scores every record it
 * reads. One line per model on stderr says so (the summary lists each repeat); returns how many.
 */
function reportDuplicates(reports: ReadonlyMap<string, PaperReport>, summaryPath: string): number {
  let total = 0;
  for (const [model, report] of reports) {
    const repeats = report.problems.filter((p) => p.code === 'prediction.duplicate');
    if (repeats.length === 0) continue;
    total += repeats.length;
    const first = repeats[0]!,
      earlier = /\(the first is (.*)\)/.exec(first.message)?.[1];
    const example = `${first.file}${first.location ? ` ${first.location}` : ''}${earlier ? ` repeats ${earlier}` : ''}`;
    process.stderr.write(
      `traversa: ${repeats.length.toLocaleString('en-US')} prediction${repeats.length === 1 ? ' of model ' + model + ' was' : 's of model ' + model + ' were'} given twice` +
        ` (same scene, question and agent; e.g. ${example}); both are scored, as the released scorer does — see docs/scoring.md, "Duplicate predictions"; each is listed in ${summaryPath}\n`,
    );
  }
  return total;
}

/** Every prediction file under `--pred` (or the one file it names). */
const predictionsUnder = (root: string): ScoringInput => ({ root, files: readTree(root, ['.json', '.jsonl', '.txt'], 'predictions') });

/** `baseline random|oracle`, its arguments checked: writes the predictions, returns what to say. */
export function writeBaseline(kind: 'random' | 'oracle', gt: string, out: string, seed: number): string {
  const project = loadProject(gt);
  const rows = kind === 'oracle' ? oracleBaseline(project) : randomWalkBaseline(project, { seed });
  writeOutput(out, toPredictionJsonl(rows));
  warnUnlabelled(project);
  return `wrote ${rows.length} ${kind === 'oracle' ? 'oracle' : 'random-walk'} predictions to ${out}`;
}
