import { beforeAll, describe, expect, it } from 'vitest';
import { undirectedKey } from '../../../src/core/graph.ts';
import { nodeIds } from '../../../src/core/sample/sampleRelease.ts';
import { prepareGeometry, suggestScene, type SceneSuggestions } from '../../../src/engine/suggest/index.ts';
import { loadSecondHouse, SECOND_HOUSE, secondHouseRelease } from '../../support/secondHouse.ts';
import { truthRows } from '../../support/suggestTruth.ts';

// The suggestions on the second generated house (test/support/secondHouse.ts), measured from its
// triangles alone: every agent × edge as the ground truth says, the crawl space found and measured
// although the 1 m reference walker does not fit through it, the ramp measured as a ramp.

const CM = 0.01;
const release = secondHouseRelease();
const ids = nodeIds(SECOND_HOUSE);
const edge = (a: string, b: string) => undirectedKey(ids.get(a)!, ids.get(b)!);

describe('suggestions on the second generated house', () => {
  let result: SceneSuggestions;

  beforeAll(async () => {
    const loaded = await loadSecondHouse();
    try {
      result = await suggestScene(prepareGeometry(loaded), release.scene.graph, release.profiles);
    } finally {
      loaded.dispose();
    }
  }, 120_000);

  const verdict = (agent: string, key: string) => {
    const s = result.agents[agent]![key]!;
    return s.traversable ? 'yes' : s.reason;
  };

  it('labels all 7 edges for all 5 agents as the ground truth does, reason included', () => {
    const truth = release.profiles.flatMap((p) => truthRows(p.name, release.scene.labels[p.name]!));
    expect(truth).toHaveLength(35);
    expect(truth.map((t) => ({ ...t, got: verdict(t.agent, t.edge) }))).toEqual(truth.map((t) => ({ ...t, got: t.traversable ? 'yes' : t.reason })));
  });

  it('suggests the crawl space passable for the sweeper, and a low opening (narrow) for every taller agent', () => {
    const crawl = edge('study', 'store');
    expect(result.edges[crawl]!.feature).toMatchObject({ kind: 'crawl' });
    expect(Math.abs(result.edges[crawl]!.feature!.clearHeightM! - 0.35)).toBeLessThanOrEqual(CM);
    expect(Math.abs(result.edges[crawl]!.feature!.clearWidthM! - 0.6)).toBeLessThanOrEqual(CM);
    expect(result.agents.SWEEPER![crawl]).toMatchObject({ traversable: true, reason: null });
    for (const agent of ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL']) {
      const s = result.agents[agent]![crawl]!;
      expect(s, agent).toMatchObject({ traversable: false, reason: 'narrow' });
      expect(s.note, agent).toMatch(/^Low opening: clear height 0\.35 m < /);
      expect(s.measured.clearHeightM, agent).toBeCloseTo(0.35, 2);
    }
  });

  it('suggests the ramp passable for the wheelchair, measured as a 1.20 m wide ramp rising 14 cm with no sill', () => {
    const ramp = edge('hall', 'den');
    const f = result.edges[ramp]!.feature!;
    expect(f.kind).toBe('ramp');
    expect(Math.abs(f.riseM! - 0.14)).toBeLessThanOrEqual(CM);
    expect(Math.abs(f.runM! - 2)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(f.clearWidthM! - 1.2)).toBeLessThanOrEqual(CM);
    expect(f.sillHeightM).toBeUndefined();
    expect(f.clearHeightM).toBeUndefined();
    expect(result.agents.WHEELCHAIR![ramp]).toMatchObject({ traversable: true, reason: null });
  });

  it('measures every width and sill within 1 cm of what the house was built with, and a clear height only at the crawl space', () => {
    for (const [key, want] of Object.entries(release.features.edges)) {
      const f = result.edges[key]!.feature!;
      const where = `${key} (${want.kind})`;
      expect(f.kind, where).toBe(want.kind);
      expect(Boolean(f.closedDoor), where).toBe(Boolean(want.closedDoor));
      for (const field of ['clearWidthM', 'sillHeightM', 'clearHeightM'] as const) {
        if (want[field] === undefined) expect(f[field], `${where} ${field}`).toBeUndefined();
        else expect(Math.abs(f[field]! - want[field]!), `${where} ${field}: ${f[field]} vs ${want[field]}`).toBeLessThanOrEqual(CM);
      }
    }
  });
});
