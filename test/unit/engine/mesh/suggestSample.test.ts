import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMesh } from '../../../../src/engine/mesh/load.ts';
import { prepareGeometry, suggestScene, type SceneSuggestions } from '../../../../src/engine/suggest/index.ts';
import { SAMPLE_DIR as DIR, sampleRelease } from '../../../support/suggestTruth.ts';

// THE ACCEPTANCE: on the sample house, the suggestions measured from house.glb alone must equal the
// recorded ground truth for every edge and agent — the verdict and the reason — and every measured
// width, sill and riser must be within 1 cm of the obstacle the house was built with.

const CM = 0.01;

describe('suggestions on the sample house', () => {
  const release = sampleRelease();
  let result: SceneSuggestions;

  beforeAll(async () => {
    const bytes = readFileSync(join(DIR, 'house.glb'));
    const loaded = await loadMesh(
      { files: [{ name: 'house.glb', data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }] },
      { upAxis: 'y', unitScale: 1 },
    );
    result = await suggestScene(prepareGeometry(loaded), release.graph, release.profiles);
    loaded.dispose();
  }, 60_000);

  it('labels all 14 edges for all 5 agents exactly as the ground truth, reason included', () => {
    expect(release.truth).toHaveLength(70);
    const got = release.truth.map((t) => {
      const s = result.agents[t.agent]![t.edge]!;
      return { agent: t.agent, edge: t.edge, traversable: s.traversable, reason: s.reason };
    });
    expect(got).toEqual(release.truth);
  });

  it('measures every width, sill and riser within 1 cm of the obstacle the house was built with', () => {
    expect(Object.keys(result.edges).sort()).toEqual(Object.keys(release.features).sort());
    for (const [key, want] of Object.entries(release.features)) {
      const f = result.edges[key]!.feature!;
      const where = `${key} (${want.kind})`;
      expect(f.kind, where).toBe(want.kind);
      expect(Boolean(f.closedDoor), where).toBe(Boolean(want.closedDoor));
      expect(f.risers, where).toBe(want.risers);
      for (const field of ['clearWidthM', 'sillHeightM', 'riserM'] as const) {
        if (want[field] === undefined) expect(f[field], `${where} ${field}`).toBeUndefined();
        else expect(Math.abs(f[field]! - want[field]!), `${where} ${field}: ${f[field]} vs ${want[field]}`).toBeLessThanOrEqual(CM);
      }
      if (want.cornerWidthsM) want.cornerWidthsM.forEach((w, i) => expect(Math.abs(f.cornerWidthsM![i]! - w), where).toBeLessThanOrEqual(CM));
      else expect(f.cornerWidthsM, where).toBeUndefined();
    }
  });

  it('reports how often each agent’s navmesh agrees with the rules (printed, not asserted)', () => {
    const rows = release.profiles.map((p) => {
      const all = Object.entries(result.agents[p.name]!);
      const voting = all.filter(([, s]) => s.navmeshRoute !== null);
      const disagree = voting
        .filter(([, s]) => s.navmeshDisagrees)
        .map(([k, s]) => `${k} (rules ${s.traversable ? 'yes' : s.reason}, navmesh ${s.navmeshRoute ? 'route' : 'none'})`);
      return `${p.name.padEnd(12)} ${String(voting.length - disagree.length).padStart(2)}/${voting.length} agree${disagree.length ? `; differ on ${disagree.join(', ')}` : ''}`;
    });
    const builds = result.navmeshes.map((n) => `${n.agent} ${n.buildMs.toFixed(0)} ms`).join(', ');
    console.log(
      `navmesh vs rules on the sample house (lift edges: a navmesh does not vote)\n${rows.join('\n')}\nnavmesh builds: ${builds}; measuring ${result.timings.measureMs.toFixed(0)} ms`,
    );
    expect(rows).toHaveLength(release.profiles.length);
  });
});
