import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_HOUSE } from '../../../../src/core/sample/houseSpec.ts';
import { houseMesh } from '../../../../src/core/sample/houseMesh.ts';
import { scanLikeHouse, SCAN_VARIANTS } from '../../../../src/core/sample/scanLike/index.ts';
import { guessUpAxis } from '../../../../src/services/meshManager.ts';
import { loadMesh } from '../../../../src/engine/mesh/load.ts';
import { levelAreas, readUpAxis, upAxisHint } from '../../../../src/engine/mesh/upAxis.ts';
import { meshInput } from '../../../support/meshFixtures.ts';
import { MESHES_DIR, sharedAvailable } from '../../../support/shared.ts';
import { REPO } from '../../../support/cli.ts';

/** A Y-up soup's positions turned Z up (x, y, z) → (x, −z, y), as a Matterport file has them. */
function toZUp(p: Float32Array): Float32Array {
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    out[i] = p[i]!;
    out[i + 1] = -p[i + 2]!;
    out[i + 2] = p[i + 1]!;
  }
  return out;
}

describe('the up axis, read from the scan', () => {
  it('the sample house is Y up, and the same house written Z up is Z up; the hint offers the turn only when it is drawn wrong', () => {
    const soup = houseMesh(SAMPLE_HOUSE);
    const y = readUpAxis(levelAreas(soup.positions, soup.indices));
    expect(y).toMatchObject({ axis: 'y', confident: true });
    expect(upAxisHint(y, 'y')).toBeNull();
    const z = readUpAxis(levelAreas(toZUp(soup.positions), soup.indices));
    expect(z).toMatchObject({ axis: 'z', confident: true });
    expect(upAxisHint(z, 'y')).toEqual({
      axis: 'z',
      text: expect.stringMatching(/^This scan looks Z up: \d+ % of its surface lies level across Z, \d+ % across Y$/),
    });
    expect(upAxisHint(z, 'z')).toBeNull();
  });

  it('holds on a reconstruction: dense, noisy, holed, wound either way, cluttered, ceilings missing', () => {
    const { soup } = scanLikeHouse(SAMPLE_HOUSE, { ...SCAN_VARIANTS.all, densityM: 0.25 }, 3);
    expect(readUpAxis(levelAreas(soup.positions, soup.indices))).toMatchObject({ axis: 'y', confident: true });
    expect(readUpAxis(levelAreas(toZUp(soup.positions), soup.indices))).toMatchObject({ axis: 'z', confident: true });
  });

  it("a lone wall or a cube says nothing clear, and the file type's convention stands", () => {
    // A wall 4 × 2.5 m standing across X: no level surface at all.
    const wall = new Float32Array([0, 0, 0, 0, 2.5, 0, 0, 0, 4, 0, 2.5, 0, 0, 2.5, 4, 0, 0, 4]);
    expect(readUpAxis(levelAreas(wall, null)).confident).toBe(false);
    // A cube: as much across Y as across Z.
    const corners = [0, 1].flatMap((x) => [0, 1].flatMap((y) => [0, 1].map((z) => [x, y, z])));
    const faces = [
      [0, 1, 3, 2],
      [4, 6, 7, 5],
      [0, 4, 5, 1],
      [2, 3, 7, 6],
      [0, 2, 6, 4],
      [1, 5, 7, 3],
    ];
    const cube = new Float32Array(faces.flatMap(([a, b, c, d]) => [a!, b!, c!, a!, c!, d!].flatMap((k) => corners[k]!)));
    const r = readUpAxis(levelAreas(cube, null));
    expect(r.shares).toEqual({ y: 1 / 3, z: 1 / 3 });
    expect(r.confident).toBe(false);
  });
});

const available = sharedAvailable(MESHES_DIR, 'reading the up axis of real scan files');
describe.skipIf(!available)('the up axis of real files, loaded', () => {
  const load = (name: string) => loadMesh(meshInput(name.startsWith('/') ? name : join(MESHES_DIR, name)), { upAxis: 'y', unitScale: 1 });
  it("Habitat's simple_room.glb is Z up inside its Y-up glTF; stage_floor1.glb and the bundled sample house are Y up; the noisy Open3D fragment says nothing clear (its .ply convention, Z up, stands)", async () => {
    expect(guessUpAxis('open3d-frag_115.ply')).toBe('z');
    const cases: [string, 'y' | 'z', boolean][] = [
      ['habitat-simple_room.glb', 'z', true],
      ['habitat-stage_floor1.glb', 'y', true],
      ['open3d-frag_115.ply', 'z', false],
      [join(REPO, 'scenes/sample-house/house.glb'), 'y', true],
    ];
    for (const [name, axis, confident] of cases) {
      const m = await load(name);
      const r = readUpAxis(m.levels!);
      console.info(
        `${name.split('/').pop()}: level across Y ${(r.shares.y * 100).toFixed(0)} %, across Z ${(r.shares.z * 100).toFixed(0)} % → ${r.axis.toUpperCase()} up${r.confident ? '' : ' (not clear)'}`,
      );
      expect(r.confident, name).toBe(confident);
      if (confident) expect(r.axis, name).toBe(axis);
      m.dispose();
    }
  });
});
