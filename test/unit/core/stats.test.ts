import { describe, expect, it } from 'vitest';
import { setLabel } from '../../../src/core/labelEdit.ts';
import type { Project } from '../../../src/core/project.ts';
import { datasetStats } from '../../../src/core/stats.ts';
import { readRelease } from '../../../src/formats/capnav/read.ts';
import { houseScene, releaseFiles } from '../../support/releaseBuilder.ts';

// Statistics are counted per scene and kept per scene object; what the Statistics view shows after
// an edit must be what counting the edited project afresh gives.

const project = (): Project => readRelease(releaseFiles([houseScene('A'), houseScene('B'), houseScene('C')]), 'Three').project!;
/** The same project as new objects: nothing counted before. */
const fresh = (p: Project): Project => structuredClone(p);

describe('dataset statistics, counted per scene', () => {
  it('after a label in one scene equal the edited project counted afresh (and differ from before)', () => {
    const before = project();
    const first = datasetStats(before);
    const label = { traversable: false, note: 'stairs only', annotator: 'ann', timestamp: '2026-11-24T00:00:00Z', source: 'annotator' as const };
    const edited: Project = { ...before, scenes: before.scenes.map((s, i) => (i === 1 ? setLabel(s, 'HUMAN', 'node_1', 'node_3', label) : s)) };
    const after = datasetStats(edited);
    expect(after).toEqual(datasetStats(fresh(edited)));
    expect(after.labels.traversable).toBe(first.labels.traversable - 1);
    expect(after.agents.HUMAN!.edge_traversable_ratio).toBeLessThan(first.agents.HUMAN!.edge_traversable_ratio!);
    expect(datasetStats(before)).toEqual(first);
  });

  it('an agent labelled in one scene only has every task counted, feasible only where it has labels or start is end', () => {
    const p = project();
    const label = { traversable: true, note: '', annotator: 'ann', timestamp: '2026-11-24T00:00:00Z', source: 'annotator' as const };
    let scene = p.scenes[0]!;
    for (const [from, to] of [
      ['node_1', 'node_3'],
      ['node_3', 'node_5'],
      ['node_5', 'node_12'],
      ['node_12', 'node_8'],
    ] as const)
      scene = setLabel(scene, 'DRONE', from, to, label);
    const edited: Project = { ...p, scenes: [scene, ...p.scenes.slice(1)] };
    const stats = datasetStats(edited);
    expect(stats.agents.DRONE).toMatchObject({ labels: 4, tasks: stats.agents.HUMAN!.tasks, feasible_tasks: 1 });
    expect(stats).toEqual(datasetStats(fresh(edited)));
  });
});
