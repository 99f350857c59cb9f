import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { houseRelease, modelRunHarness, RUN_ENV, scriptedReply } from '../support/modelRun.ts';

// Issue 27 §6: eval-inputs and run-model in shards. The merged export is the unsharded export,
// file for file; the merged results are the unsharded run's result files, byte for byte, with one
// run summary of the whole.

const { temp, serve, cli } = modelRunHarness();
const SCENES = ['HM3D000A1', 'HM3D000B2', 'HM3D000C3'];

/** Every file under `dir` (relative, sorted) with its bytes. */
function tree(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const f = join(d, n);
      if (statSync(f).isDirectory()) walk(f);
      else if (!skip(relative(dir, f))) out[relative(dir, f)] = readFileSync(f).toString('base64');
    }
  };
  walk(dir);
  return out;
}

describe('eval-inputs and run-model in shards', { timeout: 120_000 }, () => {
  it('eval-inputs over 2 shards merges into the unsharded export, file for file; run-model over 2 shards into its result files, with one summary', async () => {
    const gt = houseRelease(4, SCENES);
    const whole = temp('traversa-ei-whole-');
    const w = await cli(['eval-inputs', '--gt', gt, '--frames', '16', '--with', 'graph', '--out', whole]);
    expect(w.code, w.stderr).toBe(0);
    const shards = [0, 1].map(() => temp('traversa-ei-shard-'));
    for (const [i, out] of shards.entries()) {
      const s = await cli(['eval-inputs', '--gt', gt, '--frames', '16', '--with', 'graph', '--out', out, '--shard', `${i}/2`]);
      expect(s.code, s.stderr).toBe(0);
    }
    // Shard 0 has the first and third scenes, shard 1 the second; each is an export of its own.
    const manifestOf = (d: string) => JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'));
    expect(manifestOf(shards[0]!).counts).toMatchObject({ scenes: 2, inputs: 20 });
    expect(manifestOf(shards[1]!).counts).toMatchObject({ scenes: 1, inputs: 10 });
    const merged = temp('traversa-ei-merged-');
    const m = await cli(['merge', '--out', merged, shards[1]!, shards[0]!]);
    expect(m.code, m.stderr).toBe(0);
    expect(tree(merged)).toEqual(tree(whole));

    // run-model on the export, whole and in two shards, against the same scripted model.
    const chat = await serve({ reply: scriptedReply });
    const ask = (out: string, more: string[] = []) =>
      cli(['run-model', '--inputs', whole, '--endpoint', chat.url, '--model', 'fake-vlm', '--out', out, ...more], RUN_ENV);
    const results = temp('traversa-rm-whole-');
    expect((await ask(results)).code).toBe(0);
    const parts = [0, 1].map(() => temp('traversa-rm-shard-'));
    for (const [i, out] of parts.entries()) {
      const r = await ask(out, ['--shard', `${i}/2`]);
      expect(r.code, r.stderr).toBe(0);
    }
    const resultsMerged = temp('traversa-rm-merged-');
    const rm = await cli(['merge', '--out', resultsMerged, ...parts]);
    expect(rm.code, rm.stderr).toBe(0);
    const summary = 'fake-vlm_16f_with-graph/run_summary.json';
    const isSummary = (rel: string) => rel === summary || rel.startsWith('.cache');
    expect(tree(resultsMerged, isSummary)).toEqual(tree(results, isSummary));
    expect(Object.keys(tree(results, isSummary))).toHaveLength(SCENES.length * 5);
    const one = JSON.parse(readFileSync(join(results, summary), 'utf8'));
    const all = JSON.parse(readFileSync(join(resultsMerged, summary), 'utf8'));
    expect({ ...all, shards: undefined }).toMatchObject({
      model_setting: 'fake-vlm_16f_with-graph',
      counts: one.counts,
      tokens: one.tokens,
      failures: one.failures,
      unreadable_replies: one.unreadable_replies,
    });
    expect(all.shards).toBe(2);
    expect(one.unreadable_replies.length).toBeGreaterThan(1); // the scripted quadruped, once per scene: their order is merged
  });
});
