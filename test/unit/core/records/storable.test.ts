import { describe, expect, it } from 'vitest';
import type { Project } from '../../../../src/core/project.ts';
import { MAX_DEPTH, storageProblems } from '../../../../src/core/records/storable.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { houseScene, releaseFiles } from '../../../support/releaseBuilder.ts';

// An import is refused before anything changes when its records could not be stored: two records
// under one key, or a value nested deeper than the browser's copy can follow. Scenes are checked
// once per scene object (an import checks each while it still reads the others' files).

const project = (): Project => readRelease(releaseFiles([houseScene('A'), houseScene('B')]), 'Two').project!;
const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};
const withScene = (p: Project, i: number, edit: (s: Project['scenes'][number]) => Project['scenes'][number]): Project => ({
  ...p,
  scenes: p.scenes.map((s, j) => (j === i ? edit(s) : s)),
});

describe('whether a project can be stored as records', () => {
  it('a release as read can be stored', () => {
    expect(storageProblems(project())).toEqual([]);
  });

  it('two nodes with one id in a scene are refused, naming the key and the graph file', () => {
    const p = project();
    expect(storageProblems(p)).toEqual([]); // checked once, clean
    const dup = withScene(p, 1, (s) => ({ ...s, graph: { ...s.graph, nodes: [...s.graph.nodes, { ...s.graph.nodes[0]!, name: 'again' }] } }));
    expect(storageProblems(dup)).toEqual([
      expect.objectContaining({
        code: 'import.unstorable',
        file: 'graphs/B-graph.json',
        location: 'node/B/node_1',
        message: expect.stringContaining('node/B/node_1 occurs twice'),
      }),
    ]);
  });

  it(`a value nested past ${MAX_DEPTH} levels is refused with where it is; one just within passes`, () => {
    const p = project();
    const at = (depth: number) =>
      withScene(p, 0, (s) => ({ ...s, graph: { ...s.graph, nodes: s.graph.nodes.map((n, i) => (i === 2 ? { ...n, extra: { deep: nested(depth) } } : n)) } }));
    expect(storageProblems(at(MAX_DEPTH - 3))).toEqual([]);
    const problems = storageProblems(at(5000));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      code: 'import.unstorable',
      file: 'graphs/A-graph.json',
      message: expect.stringContaining(`nested more than ${MAX_DEPTH} levels deep`),
    });
    expect(problems[0]!.location).toMatch(/^node\/A\/node_3 extra\.deep\[0\]/);
  });
});
