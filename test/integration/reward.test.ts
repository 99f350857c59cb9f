import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonFiles } from '../../src/cli/files.ts';
import { rewardOf } from '../../src/core/research/reward.ts';
import { feasibleRoute } from '../../src/core/feasibility.ts';
import type { ScoredRecord } from '../../src/core/scoring/paper/types.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { REPO, traversa, traversaWith } from '../support/cli.ts';
import { CAPNAV_DIR, sharedAvailable } from '../support/shared.ts';

// Issue 27 §4: `traversa reward` scores one answer as the benchmark scores its record, for use in
// a training loop. A synthetic model (the random-walk baseline: right and wrong answers, valid and
// invalid routes, reasons that name obstacles or none) is scored by `traversa score` and by
// `traversa reward`, and every record's terms must be the scorer's.

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface RewardLine {
  location: string;
  status: string;
  outcome: string | null;
  feasibility: number | null;
  pathValid: number | null;
  rta: number | null;
  rv: number | null;
  reward: number | null;
}

async function bothWays(release: string): Promise<{ records: ScoredRecord[]; rewards: RewardLine[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'traversa-reward-'));
  made.push(dir);
  mkdirSync(join(dir, 'results'));
  const answers = join(dir, 'results', 'walker.jsonl');
  const base = await traversa('baseline', 'random', '--gt', release, '--out', answers, '--seed', '5');
  expect(base.code, base.stderr).toBe(0);
  const scored = await traversa('score', '--gt', release, '--pred', join(dir, 'results'), '--out', join(dir, 'out'), '--judge', 'rule');
  expect(scored.code, scored.stderr).toBe(0);
  const rewarded = await traversa('reward', '--gt', release, '--pred', answers);
  expect(rewarded.code, rewarded.stderr).toBe(0);
  const lines = (text: string) =>
    text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
  return {
    records: lines(readFileSync(join(dir, 'out', 'scored_per_record.jsonl'), 'utf8')) as ScoredRecord[],
    rewards: lines(rewarded.stdout) as RewardLine[],
  };
}

/** The terms of every record as the scorer wrote them, beside the reward's. */
function expectSameTerms(records: ScoredRecord[], rewards: RewardLine[]) {
  const byLocation = new Map(rewards.map((r) => [r.location, r]));
  expect(rewards).toHaveLength(records.length);
  const kinds = new Set<string>();
  for (const rec of records) {
    const r = byLocation.get(rec.location)!;
    const scored = rec.status === 'scored';
    expect(
      { status: r.status, outcome: r.outcome, pathValid: r.pathValid, rta: r.rta, rv: r.rv, feasibility: r.feasibility },
      `${rec.location} (${rec.scene} q${rec.questionIndex} ${rec.agent})`,
    ).toEqual({
      status: rec.status,
      outcome: scored ? rec.outcome : null,
      pathValid: scored ? Number(rec.pathValid) : null,
      rta: scored ? rec.rta : null,
      rv: scored ? rec.rv : null,
      feasibility: scored ? Number(rec.outcome === 'TP' || rec.outcome === 'TN') : null,
    });
    kinds.add(`${rec.outcome}/${rec.rv}/${rec.rta === null ? 'no-rta' : 'rta'}`);
  }
  // The synthetic model reaches every kind of record the reward must price.
  for (const k of ['TP', 'FP', 'TN', 'FN'])
    expect(
      [...kinds].some((x) => x.startsWith(k)),
      k,
    ).toBe(true);
}

describe('the RL reward', () => {
  it('on the sample house, every record is priced with the terms the scorer gives it', async () => {
    const { records, rewards } = await bothWays(join(REPO, 'scenes/sample-house'));
    expectSameTerms(records, rewards);
  });

  it.skipIf(!sharedAvailable(CAPNAV_DIR, 'the reward on the shared CapNav release'))(
    'on the shared release, every record of a random-walk model: the scorer’s feasibility, path validity, RTA and RV',
    async () => {
      const { records, rewards } = await bothWays(CAPNAV_DIR);
      expect(records.length).toBeGreaterThan(1000);
      expectSameTerms(records, rewards);
    },
    180_000,
  );

  it('the reward is the weighted mean of the terms that apply: a right "no" with a valid route and a right reason earns 1, the same with a wrong reason 2/3', () => {
    const project = readRelease(readJsonFiles(join(REPO, 'scenes/sample-house'))).project!;
    const scene = project.scenes[0]!;
    const q = scene.questions.findIndex((x) => x.text.includes('upstairs'));
    // The human's way there (the lift, then the bedroom door): a valid route, which the wheelchair cannot take — the door's 5 cm sill.
    const route = feasibleRoute(scene.graph, scene.labels, 'HUMAN', scene.questions[q]!.start.nodeId!, scene.questions[q]!.end.nodeId!)!;
    const at = { scene: scene.id, question: scene.questions[q]!.text, questionIndex: q, agent: 'WHEELCHAIR', path: route };
    const right = rewardOf(project, { ...at, answer: 'no', reason: 'The sill at the bedroom door is too high to roll over.' });
    const wrong = rewardOf(project, { ...at, answer: 'no', reason: 'There are stairs between the floors.' });
    expect([right.outcome, right.feasibility, right.rv]).toEqual(['TN', 1, 1]);
    expect([wrong.rv, wrong.reward! * 3]).toEqual([0, right.pathValid! + 1]);
    expect(rewardOf(project, { ...at, scene: 'NOPE', answer: 'no', reason: '' })).toMatchObject({ status: 'unmatched', reward: null });
  });

  it('reads answers from standard input, and refuses a bad line by its place instead of dropping it', async () => {
    const fromStdin = (input: string) => traversaWith({ limitMs: 60_000, input }, 'reward', '--gt', join(REPO, 'scenes/sample-house'), '--pred', '-');
    const ok = await fromStdin('{"scene":"sample-house","agent":"HUMAN","questionIndex":0,"answer":"yes","path":[],"reason":""}\n');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ location: 'line 1' });
    const bad = await fromStdin('{"scene":"sample-house","agent":"HUMAN","questionIndex":0}\nnot json\n');
    expect([bad.code, bad.stdout]).toEqual([1, '']);
    expect(bad.stderr).toMatch(/^traversa: stdin line 2: error: not valid JSON/);
  });
});
