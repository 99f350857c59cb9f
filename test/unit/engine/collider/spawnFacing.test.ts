import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonFiles } from '../../../../src/cli/files.ts';
import { colliderWorldOf, spawnFacing } from '../../../../src/engine/collider/index.ts';
import { loadMesh } from '../../../../src/engine/mesh/load.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { REPO } from '../../../support/cli.ts';

const SAMPLE = join(REPO, 'scenes', 'sample-house');
const project = readRelease(readJsonFiles(SAMPLE)).project!;
const nodes = new Map(project.scenes[0]!.graph.nodes.map((n) => [n.id, n.position]));
const wheelchair = project.profiles.find((p) => p.name === 'WHEELCHAIR')!;

/** Issue 23 §8, both sides: the agent faces the end node when the way there is clear, and turns off it only when it is not. */
describe('where a hand-driven agent is set down facing', async () => {
  const bytes = readFileSync(join(SAMPLE, 'house.glb'));
  const world = colliderWorldOf(
    await loadMesh(
      { files: [{ name: 'house.glb', data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }] },
      { upAxis: 'y', unitScale: 1, createWorker: () => null },
    ),
  );

  it('faces the end node when a metre that way is clear (the corridor from the hall)', () => {
    const s = spawnFacing(world, wheelchair, nodes.get('node_1')!, nodes.get('node_5')!);
    expect([s.facingEnd, s.turnedDeg, s.clearM]).toEqual([true, 0, 1]);
  });

  it('turns to the nearest heading clear for a metre when a wall stands 0.85 m along the bearing', () => {
    const straight = spawnFacing(world, wheelchair, nodes.get('node_11')!, nodes.get('node_14')!, { turnDeg: 180 });
    expect(straight.clearM).toBeLessThan(1); // the bearing itself is blocked within a metre
    const s = spawnFacing(world, wheelchair, nodes.get('node_11')!, nodes.get('node_14')!);
    expect(s.facingEnd).toBe(false);
    expect(Math.abs(s.turnedDeg)).toBeGreaterThan(0);
    expect(Math.abs(s.turnedDeg)).toBeLessThanOrEqual(40);
    expect(s.clearM).toBe(1);
  });
});
