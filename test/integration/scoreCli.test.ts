import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { writeReleaseDir } from '../support/releaseBuilder.ts';
import { scoringHouse } from '../support/scoreSupport.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const RESULTS = join(REPO, 'test/fixtures/scoring/results');
const made: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
};

/** Run the command line as a user would (the entry `npm run cli` uses). */
function traversa(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['src/cli/launch.mjs', ...args], { cwd: REPO, timeout: 60_000, env: { ...process.env, ...env } });
    let stdout = '',
      stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let gt = '';
beforeAll(async () => {
  gt = writeReleaseDir(writeRelease(scoringHouse()), 'traversa-score-gt-');
  made.push(gt);
  await traversa(['help']); // build the CLI bundle once, before the parallel runs
});
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface Summary {
  mode: string;
  models: Record<string, { overall: { f1: number; capnav: number; ci?: unknown }; settings: { judge: { kind: string } }; counts: { records: number } }>;
  problems: { file: string; location: string; code: string }[];
}

describe.concurrent('traversa score and baseline', { timeout: 60_000 }, () => {
  it('score writes per-record JSONL and a summary, and prints a table per model with the judge named', async () => {
    const out = temp('traversa-score-');
    const r = await traversa(['score', '--gt', gt, '--pred', RESULTS, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('RV judge: offline rule judge (obstacle-category overlap), not an LLM');
    for (const m of ['model-a_16f', 'model-b', 'model-c']) expect(r.stdout).toContain(`== ${m} ==`);
    expect(r.stdout).toMatch(/overall \(micro\)/);
    expect(r.stderr).toMatch(/6 problem\(s\) with the predictions/);
    const summary = JSON.parse(readFileSync(join(out, 'scored_summary.json'), 'utf8')) as Summary;
    expect(summary.mode).toBe('paper');
    expect(Object.keys(summary.models)).toEqual(['model-a_16f', 'model-b', 'model-c']);
    expect(summary.problems.map((p) => p.code)).toContain('predictions.malformed');
    const lines = readFileSync(join(out, 'scored_per_record.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { model: string; status: string; outcome: string | null });
    // Every prediction read is a line: 5 runner items, 2 text lines, 2 JSONL lines; the fixtures' bad entries are problems instead.
    expect(lines).toHaveLength(5 + 2 + 2);
    expect(lines.map((l) => l.status)).toEqual(Array(9).fill('scored'));
  });

  it("--table2 writes the paper's Table 2 as CSV and LaTeX, with the summary's figures; refused with --compat reference", async () => {
    const out = temp('traversa-score-');
    const r = await traversa(['score', '--gt', gt, '--pred', RESULTS, '--out', out, '--table2']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`wrote Table 2 as ${join(out, 'table2.csv')} and ${join(out, 'table2.tex')}`);
    const summary = JSON.parse(readFileSync(join(out, 'scored_summary.json'), 'utf8')) as { models: Record<string, { headline: { capnav: number } }> };
    const csv = readFileSync(join(out, 'table2.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toMatch(/^"CapNav Table 2: .*; models model-a_16f, model-b, model-c; paper mode, micro, judge offline rule judge/);
    expect(csv[1]).toMatch(/^Model,Feas-F1,PV,RTA,RV,CapNav,HUMAN,/);
    for (const [i, model] of ['model-a_16f', 'model-b', 'model-c'].entries()) {
      expect(csv[2 + i]!.split(',')[0]).toBe(model);
      expect(Number(csv[2 + i]!.split(',')[5])).toBeCloseTo(summary.models[model]!.headline.capnav, 2);
    }
    expect(readFileSync(join(out, 'table2.tex'), 'utf8')).toMatch(/\\toprule\nModel & Feas-F1 & PV & RTA & RV & CapNav & HUMAN/);
    const compat = await traversa(['score', '--gt', gt, '--pred', RESULTS, '--out', temp('traversa-score-'), '--compat', 'reference', '--table2']);
    expect(compat.code).toBe(2);
    expect(compat.stderr).toContain('--table2 is written in paper mode');
  });

  it('--json prints exactly the summary file; --weights and --bootstrap are honoured', async () => {
    const out = temp('traversa-score-');
    const r = await traversa([
      'score',
      '--gt',
      gt,
      '--pred',
      join(RESULTS, 'extra.jsonl'),
      '--out',
      out,
      '--json',
      '--weights',
      '1,0,0,0',
      '--bootstrap',
      '50',
      '--seed',
      '3',
    ]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as Summary;
    expect(summary).toEqual(JSON.parse(readFileSync(join(out, 'scored_summary.json'), 'utf8')));
    const m = summary.models['model-c']!;
    expect(m.overall.capnav).toBe(m.overall.f1);
    expect(m.overall.ci).toBeDefined();
  });

  it('a release without its traverse file is scored with a warning naming the scene and agents; labelled agents are not named', async () => {
    const unlabelled = writeReleaseDir(
      writeRelease(scoringHouse()).filter((f) => !f.path.startsWith('traverse/')),
      'traversa-score-unlabelled-',
    );
    made.push(unlabelled);
    const r = await traversa(['score', '--gt', unlabelled, '--pred', join(RESULTS, 'extra.jsonl'), '--out', temp('traversa-score-')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^traversa: warning: HOUSE01 has no labels for HUMAN, WHEELCHAIR, HUMANOID, QUADRUPEDAL, SWEEPER \(nothing labelled yet, or no traverse file\): .* scored as not doable for them$/m,
    );
    const labelled = await traversa(['score', '--gt', gt, '--pred', join(RESULTS, 'extra.jsonl'), '--out', temp('traversa-score-')]);
    expect(labelled.code).toBe(0);
    // The fixture labels every agent but the sweeper.
    expect(labelled.stderr).toMatch(/^traversa: warning: HOUSE01 has no labels for SWEEPER \(.* scored as not doable for it$/m);
    expect(labelled.stderr.match(/has no labels/g)).toHaveLength(1);
  });

  it('bad arguments exit 2 and say why', async () => {
    const out = temp('traversa-score-');
    for (const args of [
      ['--weights', '1,2'],
      ['--judge', 'oracle'],
      ['--compat', 'python'],
      ['--bootstrap', '-1'],
    ]) {
      const r = await traversa(['score', '--gt', gt, '--pred', RESULTS, '--out', out, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^traversa: --/);
    }
    expect((await traversa(['score', '--pred', RESULTS, '--out', out])).code).toBe(2);
  });

  it('baseline oracle writes JSONL that scores 100 on F1, PV and RTA; baseline random is seeded', async () => {
    const dir = temp('traversa-baseline-');
    const oracle = await traversa(['baseline', 'oracle', '--gt', gt, '--out', join(dir, 'oracle.jsonl')]);
    expect(oracle.code).toBe(0);
    expect(oracle.stderr).toContain('wrote 15 oracle predictions');
    const r = await traversa(['score', '--gt', gt, '--pred', join(dir, 'oracle.jsonl'), '--out', join(dir, 'scored'), '--json']);
    const m = (JSON.parse(r.stdout) as { models: Record<string, { overall: Record<string, number> }> }).models.oracle!;
    expect([m.overall.f1, m.overall.pv, m.overall.rta]).toEqual([100, 100, 100]);
    await traversa(['baseline', 'random', '--gt', gt, '--out', join(dir, 'a.jsonl'), '--seed', '9']);
    await traversa(['baseline', 'random', '--gt', gt, '--out', join(dir, 'b.jsonl'), '--seed', '9']);
    expect(readFileSync(join(dir, 'a.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'b.jsonl'), 'utf8'));
    expect((await traversa(['baseline', 'best', '--gt', gt, '--out', join(dir, 'c.jsonl')])).code).toBe(2);
  });

  it("--compat reference runs the released scorer's rules and writes its field names", async () => {
    const out = temp('traversa-compat-');
    const r = await traversa(['score', '--gt', gt, '--pred', join(RESULTS, 'model-a_16f'), '--out', out, '--compat', 'reference']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--compat reference');
    const summary = JSON.parse(readFileSync(join(out, 'scored_summary.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual(expect.arrayContaining(['n_records', 'n_ok', 'n_fail', 'capnav_score', 'capnav_components', 'binary_classification']));
    const first = JSON.parse(readFileSync(join(out, 'scored_per_record.jsonl'), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['qid', 'pv_valid', 'rv_score', 'binary_bucket']));
  });
});

describe('traversa score --judge http', { timeout: 60_000 }, () => {
  const KEY = 'sk-cli-test-secret-42';
  let requests = 0;
  let url = '';
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      // Every third request fails once with a 500, to be retried.
      if (requests % 3 === 0) {
        res.writeHead(500);
        res.end('busy');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: '{"correct": true, "explanation": "matches"}' } }] }));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('judges through the endpoint, caches verdicts in <out>/judge-cache.json, asks nothing the second time, and never writes the key', async () => {
    const out = temp('traversa-http-');
    const env = { TRAVERSA_JUDGE_URL: url, TRAVERSA_JUDGE_MODEL: 'judge-1', TRAVERSA_JUDGE_KEY: KEY, TRAVERSA_JUDGE_RETRY_MS: '10' };
    const args = ['score', '--gt', gt, '--pred', join(RESULTS, 'model-a_16f'), '--out', out, '--judge', 'http'];
    const first = await traversa(args, env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('RV judge: LLM judge judge-1 at http://127.0.0.1');
    expect(requests).toBeGreaterThan(0);
    expect(existsSync(join(out, 'judge-cache.json'))).toBe(true);
    const before = requests;
    const second = await traversa(args, env);
    expect(second.code).toBe(0);
    expect(requests).toBe(before);
    expect(second.stdout).toBe(first.stdout);
    for (const f of readdirSync(out)) expect(readFileSync(join(out, f), 'utf8')).not.toContain(KEY);
    for (const text of [first.stdout, first.stderr, second.stdout, second.stderr]) expect(text).not.toContain(KEY);
  });

  it('without the endpoint in the environment it exits 2 and names the variables', async () => {
    const r = await traversa(['score', '--gt', gt, '--pred', RESULTS, '--out', temp('traversa-http-'), '--judge', 'http'], {
      TRAVERSA_JUDGE_URL: '',
      TRAVERSA_JUDGE_MODEL: '',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('TRAVERSA_JUDGE_URL');
  });
});
