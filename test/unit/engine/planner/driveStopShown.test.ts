import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentProfile } from '../../../../src/core/agents.ts';
import { readJsonFiles } from '../../../../src/cli/files.ts';
import { ScenePlanner } from '../../../../src/engine/planner/index.ts';
import { prepareGeometry } from '../../../../src/engine/suggest/index.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { REPO } from '../../../support/cli.ts';
import { loadSampleHouse } from '../../../support/suggestTruth.ts';

const SAMPLE = join(REPO, 'scenes', 'sample-house');
const project = readRelease(readJsonFiles(SAMPLE)).project!;
const nodes = new Map(project.scenes[0]!.graph.nodes.map((n) => [n.id, n.position]));
const profile = (name: string) => project.profiles.find((p) => p.name === name)!;
/** From the agent's centre to its front, facing the way it goes. */
const half = (p: AgentProfile) => (p.shape === 'box' ? (p.depthM ?? p.widthM) : p.widthM) / 2;

/**
 * Issue 23 §8: the playback of a stopped drive ends against what stopped it. The studio plays the
 * decision's motion pose by pose and leaves the agent on its last pose; these stops used to show the
 * agent at its start, 1.5–2.3 m from the stop mark (the search had nothing to show that way round).
 */
describe("a stopped drive's motion ends at the stop it names", () => {
  let planner: ScenePlanner;
  beforeAll(async () => {
    const loaded = await loadSampleHouse();
    planner = await ScenePlanner.create(prepareGeometry(loaded));
  }, 120_000);
  afterAll(() => planner?.dispose());

  it.each([
    ['WHEELCHAIR', 'node_6', 'node_5', 'step'],
    ['QUADRUPEDAL', 'node_7', 'node_1', 'door'],
    ['WHEELCHAIR', 'node_14', 'node_11', 'step'],
    ['WHEELCHAIR', 'node_5', 'node_6', 'step'],
  ])(
    '%s from %s to %s (%s)',
    (agent, from, to, reason) => {
      const p = profile(agent);
      const d = planner.decide(p, nodes.get(from)!, nodes.get(to)!);
      expect(d.reached).toBe(false);
      expect(d.reason).toBe(reason);
      const last = d.motion.at(-1)!,
        stop = d.stoppedAt!;
      const front = Math.hypot(stop.x - last.x, stop.z - last.z) - half(p);
      expect(front, `the agent's front is ${front.toFixed(2)} m from the stop mark`).toBeLessThan(0.35);
      // It drove there: every pose fits the scan, none jumps.
      for (let i = 1; i < d.motion.length; i++) expect(Math.hypot(d.motion[i]!.x - d.motion[i - 1]!.x, d.motion[i]!.z - d.motion[i - 1]!.z)).toBeLessThan(0.3);
    },
    60_000,
  );
});
