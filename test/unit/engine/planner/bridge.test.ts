import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, type AgentProfile } from '../../../../src/core/agents.ts';
import { poseSpaceOf } from '../../../../src/engine/planner/attempt.ts';
import { roughSearch } from '../../../../src/engine/planner/bridge.ts';
import type { PoseSpace } from '../../../../src/engine/planner/poseSpace.ts';
import { ScenePlanner } from '../../../../src/engine/planner/scene.ts';
import { searchPoses } from '../../../../src/engine/planner/search.ts';
import { prepareGeometry } from '../../../../src/engine/suggest/geometry.ts';
import { inFrame, ROOM_NODES, twoRooms } from '../../../support/suggestScenes.ts';

// The bridge's rough search across a bottleneck at 1 cm runs from whichever end has fewer points to
// start from: from every pose reached before the bottleneck (sources) to the far side (exits), or
// from the exits back to any source. Either way it must find a way exactly when one exists, and
// the way must be one the agent drives forth: from a source to an exit, move by move.

const agent = (name: string): AgentProfile => DEFAULT_PROFILES.find((p) => p.name === name)!;

/** Whether t follows s by one of the search's moves: a lattice step keeping the heading (or into or out of turning anywhere), or a turn by one bin. */
function follows(space: PoseSpace, s: number, t: number): boolean {
  const { S, K, ANY, lx } = space;
  const p = Math.floor(s / S),
    k = s % S,
    q = Math.floor(t / S),
    kk = t % S;
  const usable = kk === ANY ? space.spins(q) : space.free(q, kk) && !space.spins(q);
  if (!usable) return false;
  if (p === q) return k !== ANY && kk !== ANY && (kk === (k + 1) % K || kk === (k + K - 1) % K);
  const da = (q % lx) - (p % lx),
    db = Math.floor(q / lx) - Math.floor(p / lx);
  if (Math.max(Math.abs(da), Math.abs(db)) !== 1) return false;
  return kk === ANY || k === ANY || kk === k;
}

describe("the bridge's rough search across a doorway at 1 cm", () => {
  const planners: ScenePlanner[] = [];
  afterAll(() => planners.forEach((p) => p.dispose()));

  async function doorway(doorWidth: number) {
    const scene = await ScenePlanner.create(prepareGeometry(twoRooms({ doorWidth }).loaded()));
    planners.push(scene);
    const [a, b] = ROOM_NODES.map((p) => inFrame(p));
    const { terrain } = scene.planner.terrainFor([a!, b!], 1.0);
    const g = terrain.region.grid;
    // x 1.5–3.8 round the wall at x = 3 (more of the first room than of the second), the whole tube across.
    const i0 = Math.floor((1.5 - g.x0) / g.cellM),
      i1 = Math.floor((3.8 - g.x0) / g.cellM);
    const fine = poseSpaceOf(terrain, agent('WHEELCHAIR'), null, 1, false, { i0, j0: 0, ni: i1 - i0 + 1, nj: g.nz });
    const pointsWhere = (keep: (progress: number) => boolean) => {
      const out: number[] = [];
      for (let p = 0; p < fine.points; p++) if (keep(fine.progress(p))) out.push(p);
      return out;
    };
    return { fine, pointsWhere };
  }

  for (const [doorWidth, passes] of [
    [0.8, true],
    [0.7, false],
  ] as const) {
    it(`${doorWidth} m door (${passes ? 'the wheelchair fits' : 'too narrow'}): from the smaller end, the same answer; a way found runs from a source to an exit`, async () => {
      const { fine, pointsWhere } = await doorway(doorWidth);
      // The node is at x = 1.5: progress ~ x − 1.5, the wall at ~1.5.
      const cases = [
        // Many sources (the first room's near part), exits a 5 cm band in the second room: from the exits back.
        { name: 'few exits', sources: pointsWhere((s) => s <= 1.0), exits: pointsWhere((s) => s >= 2.1 && s < 2.15), sStuck: 1.0 },
        // Sources a 5 cm band, exits the second room's far part: forth from the sources.
        { name: 'few sources', sources: pointsWhere((s) => s >= 0.95 && s <= 1.0), exits: pointsWhere((s) => s >= 2.1), sStuck: 1.0 },
      ];
      for (const c of cases) {
        const sources = c.sources.flatMap((p) => fine.statesAt(p));
        const isExit = new Uint8Array(fine.points);
        for (const p of c.exits) isExit[p] = 1;
        const exitOk = (f: number) => isExit[f] === 1;
        const short = fine.shortOf(c.sStuck + 1.1);
        const forth = searchPoses(fine, sources, exitOk, short);
        const forthExpanded = forth.expanded;
        const got = roughSearch(fine, sources, exitOk, short, c.sStuck)();
        expect(got.found, c.name).toBe(passes);
        expect(forth.found, c.name).toBe(passes);
        if (passes) {
          expect(sources, `${c.name}: starts at a source`).toContain(got.path[0]);
          expect(exitOk(Math.floor(got.path.at(-1)! / fine.S)), `${c.name}: ends on an exit`).toBe(true);
          for (let i = 1; i < got.path.length; i++) expect(follows(fine, got.path[i - 1]!, got.path[i]!), `${c.name}: move ${i}`).toBe(true);
        } else if (c.name === 'few exits') {
          // Proving there is none over the exits' side (the window's 0.8 m of the second room) tries
          // far fewer poses than over the sources' (its 1.5 m of the first).
          expect(got.expanded * 1.5).toBeLessThan(forthExpanded);
        } else expect(got.expanded).toBe(forthExpanded);
      }
    });
  }

  it('a start the collider refuses after the round that found it starts nothing in the next round, from either end', async () => {
    const cases = [
      { name: 'from the exits back', sources: (s: number) => s <= 1.0, exits: (s: number) => s >= 2.1 && s < 2.15, starts: 'exits' },
      { name: 'forth from the sources', sources: (s: number) => s >= 0.95 && s <= 1.0, exits: (s: number) => s >= 2.1, starts: 'sources' },
    ] as const;
    for (const band of cases) {
      // A scene each: the refusals stay on its lattice.
      const { fine, pointsWhere } = await doorway(0.8);
      const c = { ...band, sources: pointsWhere(band.sources), exits: pointsWhere(band.exits) };
      const isExit = new Uint8Array(fine.points);
      for (const p of c.exits) isExit[p] = 1;
      const exitOk = (f: number) => isExit[f] === 1;
      const round = roughSearch(
        fine,
        c.sources.flatMap((p) => fine.statesAt(p)),
        exitOk,
        fine.shortOf(2.1),
        1.0,
      );
      expect(round().found, `${c.name}: a way before the refusal`).toBe(true);
      // The collider refuses every pose of the end the rounds start from (as bridge.ts vetoes what it refuses).
      for (const p of c.starts === 'exits' ? c.exits : c.sources) fine.veto(p);
      const next = round();
      expect(next.found, c.name).toBe(false);
      expect(next.expanded, `${c.name}: nothing expanded from a refused start`).toBe(0);
    }
  });
});
