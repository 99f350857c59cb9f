import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { houseScene, rawNode, rawQuestion, releaseFiles, writeReleaseDir } from '../support/releaseBuilder.ts';
import { traversa } from '../support/cli.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

type Report = { ok: boolean; warnings: number; problems: { file: string; location: string; severity: string; message: string }[] };

describe('validate flags a room no doorway reaches (issue 13)', { timeout: 30_000 }, () => {
  it('a node without edges is a warning at its place in the graph file, naming the question that starts there; the release still passes', async () => {
    const house = houseScene();
    house.graph.nodes.push(rawNode('node_99', 'Media room'));
    house.qa.push(rawQuestion('Can [Agent] move from the media room to the kitchen?', 'Media room', 'Kitchen'));
    const dir = writeReleaseDir(releaseFiles([house]));
    made.push(dir);
    const r = await traversa('validate', dir, '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    const isolated = report.problems.filter((p) => p.message.includes('has no edges'));
    expect(isolated).toEqual([
      expect.objectContaining({ file: 'graphs/HM3D00025-graph.json', location: `/nodes/${house.graph.nodes.length - 1}`, severity: 'warning' }),
    ]);
    expect(isolated[0]!.message).toContain('node_99 ("Media room")');
    expect(isolated[0]!.message).toContain(`question ${house.qa.length - 1} starts there`);
  });

  it('the same house with every room joined has no such warning', async () => {
    const dir = writeReleaseDir(releaseFiles([houseScene()]));
    made.push(dir);
    const report = JSON.parse((await traversa('validate', dir, '--json')).stdout) as Report;
    expect(report.problems.filter((p) => p.message.includes('has no edges'))).toEqual([]);
  });
});
