// The command line and the browser score through one pipeline (core/scoring/pipeline.ts). Here the
// same prediction tree is scored by `traversa score` (its --out files) and by the browser's scoring
// worker — its message handler, driven in Node the way the page drives the worker, every message
// crossing by structured clone with transfer — and the reports must be the same to the last digit:
// per-model rows, per-agent rows, bootstrap intervals, every record, the released scorer's files.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonFiles, readTree } from '../../src/cli/files.ts';
import { toJsonl, toSummaryJson } from '../../src/core/scoring/compat/index.ts';
import type { JudgeChoice } from '../../src/core/scoring/judges/choose.ts';
import type { PaperSettings, ScoringRequest } from '../../src/core/scoring/pipeline.ts';
import { rowAt } from '../../src/core/scoring/paper/lite.ts';
import type { LiteOutcome, ReportFiles, ScoreWorkerReply, ScoreWorkerRequest } from '../../src/core/scoring/workerProtocol.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { scoreHandler } from '../../src/workers/scoreHandler.ts';
import { REPO, traversa } from '../support/cli.ts';
import { writeReleaseDir } from '../support/releaseBuilder.ts';
import { scoringHouse } from '../support/scoreSupport.ts';

const RESULTS = join(REPO, 'test/fixtures/scoring/results');
const VERDICTS = 'test/fixtures/scoring/verdicts.json';
const made: string[] = [];
let gt = '';

beforeAll(async () => {
  gt = writeReleaseDir(writeRelease(scoringHouse()), 'traversa-parity-gt-');
  made.push(gt);
  await traversa('help'); // build the CLI bundle once, before the parallel runs
});
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** `traversa score …`: its stdout, and the two files it wrote into --out. */
async function cli(...args: string[]): Promise<{ summary: string; records: string; out: string }> {
  const out = mkdtempSync(join(tmpdir(), 'traversa-parity-'));
  made.push(out);
  const r = await traversa('score', '--gt', gt, '--out', out, ...args);
  expect(r.code, r.stderr).toBe(0);
  return { summary: readFileSync(join(out, 'scored_summary.json'), 'utf8'), records: readFileSync(join(out, 'scored_per_record.jsonl'), 'utf8'), out };
}

/**
 * The page's side of the worker: requests go in and replies come out as structured clones, the
 * rows' buffers transferred, as between the page and a real worker.
 */
function browserWorker() {
  const replies: ScoreWorkerReply[] = [];
  const handle = scoreHandler({ postMessage: (m, transfer) => replies.push(structuredClone(m, { transfer })) });
  const ask = async (m: ScoreWorkerRequest) => {
    replies.length = 0;
    await handle(structuredClone(m));
    const last = replies.filter((r) => r.type !== 'progress');
    expect(last).toHaveLength(1);
    if (last[0]!.type === 'error') throw new Error(last[0]!.message);
    return last[0]!;
  };
  return {
    score: async (request: ScoringRequest) => ((await ask({ type: 'score', request })) as { result: LiteOutcome }).result,
    files: async () => ((await ask({ type: 'export', ticket: 1 })) as { files: ReportFiles | null }).files,
    record: async (model: string, i: number) => ((await ask({ type: 'record', model, i, ticket: 2 })) as { record: unknown }).record,
  };
}

/**
 * The files a picked folder gives the page: paths inside the folder (the app drops the folder's
 * own name from each `webkitRelativePath`), the folder's name as the root — what `--pred` gives.
 */
const picked = (dir: string) => ({ root: dir.split('/').pop()!, files: readTree(dir, ['.json', '.jsonl', '.txt'], 'predictions') });
/** The project the page holds after importing the release. */
const imported = () => readRelease(readJsonFiles(gt)).project!;
const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

describe.concurrent('the command line and the browser score a prediction tree alike', { timeout: 60_000 }, () => {
  async function expectSamePaperReports(flags: string[], dir: string, settings: PaperSettings) {
    const [fromCli, worker] = [await cli('--pred', dir, ...flags), browserWorker()];
    const lite = await worker.score({ mode: 'paper', project: imported(), input: picked(dir), settings });
    const files = (await worker.files())!;
    const exported = JSON.parse(files.json) as { summary: { models: Record<string, Record<string, unknown>> }; records: unknown[] };
    const summary = JSON.parse(fromCli.summary) as typeof exported.summary;

    // The whole summary (every model's overall, per-agent and macro rows, intervals, confusion,
    // failure modes, problems) and every record, in order.
    expect(exported.summary).toEqual(summary);
    expect(exported.records).toEqual(
      fromCli.records
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );

    // What the page shows: the light per-model reports are the CLI's rows, and their records too.
    if (lite.mode !== 'paper') throw new Error('expected paper reports');
    expect(lite.reports.map(([m]) => m)).toEqual(Object.keys(summary.models));
    let line = 0;
    for (const [model, report] of lite.reports) {
      const { rows, counts: _rows, problems: _problems, ...shown } = report;
      const { counts: _counts, ...written } = summary.models[model]!;
      expect(plain(shown)).toEqual(written);
      for (let i = 0; i < rows.length; i++, line++) expect(rowAt(rows, i).id).toBe((exported.records[line] as { id: string }).id);
      expect(plain(await worker.record(model, 0))).toEqual(exported.records[line - rows.length]);
    }
    return { summary, records: exported.records };
  }

  it('in paper mode, with bootstrap intervals at a chosen seed and level, macro averaging, over several models', async () => {
    const bootstrap = { resamples: 200, seed: 7, level: 0.9 };
    const { summary } = await expectSamePaperReports(['--bootstrap', '200', '--seed', '7', '--level', '0.9', '--averaging', 'macro'], RESULTS, {
      judge: { kind: 'rule' },
      weights: { f1: 0.25, pv: 0.25, rta: 0.25, rv: 0.25 },
      averaging: 'macro',
      bootstrap,
    });
    expect(Object.keys(summary.models)).toEqual(['model-a_16f', 'model-b', 'model-c']);
    for (const m of Object.values(summary.models)) {
      expect(m.settings).toMatchObject({ bootstrap, averaging: 'macro' });
      expect((m.overall as { ci?: object }).ci).toBeDefined();
    }
  });

  it("in paper mode on one model's folder: loose files take the folder's name, so its own imported verdicts apply", async () => {
    const dir = join(RESULTS, 'model-a_16f');
    // The verdict file's name is the edge's to give (the path typed, the picked file's name): the same here.
    const judge: JudgeChoice = { kind: 'imported', file: { path: VERDICTS, text: readFileSync(join(REPO, VERDICTS), 'utf8') } };
    // The file has no verdict for some of this model's "no" answers: their RV is unknown, accepted here.
    const { summary, records } = await expectSamePaperReports(['--verdicts', VERDICTS, '--bootstrap', '50', '--seed', '3', '--accept-unjudged'], dir, {
      judge,
      weights: { f1: 0.25, pv: 0.25, rta: 0.25, rv: 0.25 },
      averaging: 'micro',
      bootstrap: { resamples: 50, seed: 3, level: 0.95 },
    });
    expect(Object.keys(summary.models)).toEqual(['model-a_16f']);
    expect((summary.models['model-a_16f']!.headline as { capnav: number | null }).capnav).toBeNull();
    // The verdict for this model's wheelchair record (keyed by model) was the one applied.
    expect(records).toContainEqual(
      expect.objectContaining({
        model: 'model-a_16f',
        agent: 'WHEELCHAIR',
        judge: expect.objectContaining({ explanation: 'names the landing, not the stairs' }),
      }),
    );
  });

  it("with --compat reference: the released scorer's per-record JSONL and summary, byte for byte", async () => {
    for (const judge of ['rule', 'none'] as const) {
      const fromCli = await cli('--pred', RESULTS, '--compat', 'reference', '--judge', judge);
      // The paths the released scorer writes into its files are the command line's to give: the browser is given the same.
      const settings = { resultRoot: RESULTS, gtRoot: gt, perRecordOutput: join(fromCli.out, 'scored_per_record.jsonl') };
      const lite = await browserWorker().score({ mode: 'compat', release: readJsonFiles(gt), input: picked(RESULTS), judge: { kind: judge }, settings });
      if (lite.mode !== 'compat') throw new Error("expected the reference scorer's result");
      expect(toJsonl(lite.result.records)).toBe(fromCli.records);
      expect(toSummaryJson(lite.result.summary)).toBe(fromCli.summary);
      expect(lite.result.summary.n_records).toBeGreaterThan(0);
    }
  });
});
