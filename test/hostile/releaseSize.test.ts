import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_LIMITS } from '../../src/formats/capnav/limits.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { houseScene, rawEdge, rawLabel, rawNode, rawQuestion, releaseFiles, type RawGraphJson } from '../support/releaseBuilder.ts';
import { expectNoTrace, LIMIT_MS, run, tempDirs, writeTree } from './support.ts';

/**
 * Issue 25 §9: a 200 MB graph of a million nodes (under the 256 MB file limit) overflowed the stack
 * of `validate`, `plan` and `convert` and kept `stats` busy past 120 s. Every reader now states the
 * largest release it reads (RELEASE_LIMITS) and refuses past it, naming the file and the limit,
 * before examining a record; at the limit it reads as before.
 */
const dirs = tempDirs();
beforeAll(async () => {
  await run('help');
}, 120_000); // build the CLI bundle once, before the parallel runs
afterAll(() => dirs.cleanUp());

/** The sample house with its graph grown to `nodes` nodes (a chain from its last node). */
function grownHouse(nodes: number) {
  const house = houseScene();
  const graph = house.graph;
  const extra = nodes - graph.nodes.length;
  for (let i = 0; i < extra; i++) {
    graph.nodes.push(rawNode(`x${i}`, `Room ${i}`));
    graph.edges.push(rawEdge(`ex${i}`, i === 0 ? 'node_8' : `x${i - 1}`, `x${i}`));
  }
  return house;
}

/** Written compactly, as a generated release would be. */
function writeCompact(scene: ReturnType<typeof houseScene>): string {
  const files = releaseFiles([{ id: scene.id, graph: JSON.stringify(scene.graph), qa: JSON.stringify(scene.qa), traverse: JSON.stringify(scene.traverse) }]);
  return writeTree(dirs.make(), files);
}

describe('the largest release each command reads', { timeout: 6 * LIMIT_MS }, () => {
  it(`a graph of ${(RELEASE_LIMITS.nodes + 1).toLocaleString('en')} nodes is refused by every command that reads a release, at once and by file; one of ${RELEASE_LIMITS.nodes.toLocaleString('en')} is read`, async () => {
    const over = writeCompact(grownHouse(RELEASE_LIMITS.nodes + 1));
    const at = writeCompact(grownHouse(RELEASE_LIMITS.nodes));
    const message = `graphs/HM3D00025-graph.json /nodes: fatal: 100,001 nodes; a scene's graph holds at most 100,000 (the largest release Traversa reads`;
    const [validate, stats, plan, convert] = await Promise.all([
      run('validate', over),
      run('stats', over),
      run('plan', over),
      run('convert', over, '--out', dirs.make()),
    ]);
    expect(validate.stdout).toContain(message);
    expect(validate.code).toBe(1);
    for (const r of [stats, plan, convert]) {
      expect(r.timedOut, 'killed past the time limit').toBe(false);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('cannot be read as a CapNav release');
      expect(r.code).toBe(1);
    }
    for (const r of [validate, stats, plan, convert]) expectNoTrace(r);

    const good = await run('stats', at, '--json');
    expect(good).toMatchObject({ code: 0, timedOut: false });
    expect(JSON.parse(good.stdout)).toMatchObject({ scenes: 1 });
  });
});

describe('limits of a release, read in the studio and on the command line alike', () => {
  const small = { nodes: 8, edges: 8, questions: 3, labelsPerAgent: 8, records: 60 };
  const codes = (r: ReturnType<typeof readRelease>) =>
    r.problems.filter((p) => p.code === 'release.too-large').map((p) => `${p.file} ${p.location}: ${p.message.split(';')[0]}`);

  it('the sample house is within every limit', () => {
    const r = readRelease(releaseFiles([houseScene()]), 'house', small);
    expect(codes(r)).toEqual([]);
    expect(r.project?.scenes).toHaveLength(1);
  });

  it('too many edges are refused by file and location, and nothing is imported', () => {
    const house = houseScene();
    const graph = house.graph as RawGraphJson;
    for (let i = 0; i < 3; i++) graph.edges.push(rawEdge(`more${i}`, 'node_1', 'node_2'));
    const r = readRelease(releaseFiles([house]), 'house', small);
    expect(r.project).toBeNull();
    expect(codes(r)).toEqual(['graphs/HM3D00025-graph.json /edges: 9 edges']);
  });

  it('too many questions, or labels of one agent, are each refused by file and location, and nothing is imported', () => {
    const house = houseScene();
    house.qa.push(rawQuestion('Can [Agent] go?', 'node_1', 'node_2'), rawQuestion('Can [Agent] go back?', 'node_2', 'node_1'));
    const human = house.traverse.HUMAN as Record<string, unknown>;
    for (let i = 0; i < 8; i++) human[`startDetail:x${i}`] = rawLabel(true, '');
    const r = readRelease(releaseFiles([house]), 'house', small);
    expect(r.project).toBeNull();
    expect(codes(r)).toEqual([
      `qa/HM3D00025_QA.json : ${house.qa.length} questions`,
      `traverse/HM3D00025-traverse.json /HUMAN: ${Object.keys(human).length} labels of HUMAN`,
    ]);
  });

  it("scenes past the whole release's limit are not read: the scene that passed it is named", () => {
    // Each house is 6 nodes, 6 edges, 2 questions and its labels: the third passes 60.
    const houses = ['HM3D00001', 'HM3D00002', 'HM3D00003', 'HM3D00004'].map((id) => houseScene(id));
    const r = readRelease(releaseFiles(houses), 'four houses', small);
    expect(r.project).toBeNull();
    const tooLarge = r.problems.filter((p) => p.code === 'release.too-large');
    expect(tooLarge).toHaveLength(1);
    expect(tooLarge[0]!.message).toMatch(/^the release holds more than 60 nodes, edges, questions and labels together \(\d+ by this scene's files\)/);
    const perScene = r.problems.filter((p) => p.code !== 'release.too-large');
    expect(perScene.some((p) => p.file.includes('HM3D00004'))).toBe(false);
  });
});
