import { describe, expect, it } from 'vitest';
import { loadMesh } from '../../src/engine/mesh/load.ts';
import { cornerGltf } from '../support/hostileScan.ts';

/**
 * Issue 25 §7: a scan with a vertex at NaN, infinity or 1e38 replaced a good scan (the view went
 * blank), made `cli suggest`/`drive` say "the agent fits nowhere" with exit 0, and at 1e38 crashed
 * the navmesh build. loadMesh (the studio's and the command line's loader) refuses it, naming the
 * file and the vertex; the same scan with a sane vertex loads.
 */
const Y_UP = { upAxis: 'y', unitScale: 1 } as const;
const gltf = (poison?: number) => ({ files: [{ name: 'house.gltf', data: new TextEncoder().encode(cornerGltf({ poison }).gltf).buffer as ArrayBuffer }] });

describe('a scan whose coordinates are not a building', () => {
  it.each([
    [NaN, /house\.gltf: mesh "corner": vertex 2 has y = NaN: coordinates must be finite numbers/],
    [Infinity, /house\.gltf: mesh "corner": vertex 2 has y = Infinity: coordinates must be finite numbers/],
    [-Infinity, /vertex 2 has y = -Infinity/],
    [1e38, /house\.gltf: is 1\.00e\+38 m across in y \(vertex 2 has y = 9\.99\d*e\+37\); a scan is at most 10,000 m across: a vertex is wrong, or the unit scale \(1\)/],
  ])('a vertex at %s is refused with the file and the vertex', async (poison, message) => {
    await expect(loadMesh(gltf(poison), { ...Y_UP, createWorker: () => null })).rejects.toThrow(message);
  });

  it('a vertex 3 m away is just a scan', async () => {
    const loaded = await loadMesh(gltf(3), { ...Y_UP, createWorker: () => null });
    expect(loaded.stats.triangles).toBe(4);
  });

  it('a large scan in millimetres is judged in metres: the unit scale counts', async () => {
    await expect(loadMesh(gltf(9e6), { upAxis: 'y', unitScale: 0.001, createWorker: () => null })).resolves.toBeTruthy();
    await expect(loadMesh(gltf(9e6), { ...Y_UP, createWorker: () => null })).rejects.toThrow(/9\.00e\+6 m across in y/);
  });
});
