import { join } from 'node:path';
import { Box3, Group, Matrix4, Mesh, Quaternion, Raycaster, Vector3, type BufferGeometry, type MeshBasicMaterial } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectFloorLevels } from '../../../../src/engine/mesh/floors.ts';
import { loadMesh, type LoadedMesh } from '../../../../src/engine/mesh/load.ts';
import { castRay, floorBelow } from '../../../../src/engine/rays/cast.ts';
import { scanSurface } from '../../../../src/engine/rays/surface.ts';
import { meshInput } from '../../../support/meshFixtures.ts';
import { MESHES_DIR, sharedAvailable } from '../../../support/shared.ts';

const available = sharedAvailable(MESHES_DIR, 'the real-scan loader tests');
const load = (name: string, upAxis: 'y' | 'z') => loadMesh(meshInput(join(MESHES_DIR, name)), { upAxis, unitScale: 1 });

/** World-space bounds of the render object under the frame, as the viewport will show it. */
function worldBounds(m: LoadedMesh): Box3 {
  const wrapper = new Group();
  wrapper.applyMatrix4(m.frame);
  wrapper.add(m.object);
  wrapper.updateMatrixWorld(true);
  const box = new Box3().setFromObject(m.object, true);
  wrapper.remove(m.object);
  return box;
}

describe.skipIf(!available)('the Open3D RGB-D fragment (binary PLY, Z up)', () => {
  let scan: LoadedMesh;
  beforeAll(async () => {
    scan = await load('open3d-frag_115.ply', 'z');
  });

  it('loads every face with its vertex colours', () => {
    expect(scan.stats).toMatchObject({ triangles: 127_229, vertices: 64_365, format: 'ply', textures: 0, bytes: 3_392_124 });
    const mesh = scan.object as Mesh;
    expect(mesh.geometry.getAttribute('color').count).toBe(64_365);
    expect((mesh.material as MeshBasicMaterial).vertexColors).toBe(true);
    expect(scan.collision.geometry.index!.count).toBe(127_229 * 3);
    console.info(
      `open3d-frag_115.ply in Node: read ${scan.timings.read.toFixed(0)} ms, parse ${scan.timings.parse.toFixed(0)} ms, BVH ${scan.timings.bvh.toFixed(0)} ms`,
    );
  });

  it('stands Z up: the ~1.0 m extent becomes world height, and the vertex data is untouched', () => {
    const size = worldBounds(scan).getSize(new Vector3());
    expect(size.y).toBeCloseTo(1.04, 1);
    expect([size.x, size.z].map((v) => Math.round(v * 10) / 10).sort()).toEqual([1.7, 1.9]);
    // The frame carries the turn; the file's own Z is still the geometry's third coordinate.
    const own = new Box3().setFromBufferAttribute((scan.object as Mesh).geometry.getAttribute('position') as never).getSize(new Vector3());
    expect(own.z).toBeCloseTo(1.04, 1);
  });

  it('is hit by a ray cast straight down from above its centre, through the BVH and through three’s raycaster', () => {
    const centre = worldBounds(scan).getCenter(new Vector3());
    const above = centre.clone().setY(10);
    const hit = floorBelow(scanSurface(scan), above, 20);
    expect(hit).not.toBeNull();
    expect(hit!.point.x).toBeCloseTo(centre.x, 6);
    expect(hit!.point.z).toBeCloseTo(centre.z, 6);
    expect(hit!.normal.y).toBeGreaterThan(0); // turned to face the ray's origin

    const wrapper = new Group();
    wrapper.applyMatrix4(scan.frame);
    wrapper.add(scan.collision);
    wrapper.updateMatrixWorld(true);
    const raycaster = new Raycaster(above, new Vector3(0, -1, 0));
    raycaster.firstHitOnly = true;
    const [viaThree] = raycaster.intersectObject(scan.collision);
    wrapper.remove(scan.collision);
    expect(viaThree!.point.distanceTo(hit!.point)).toBeLessThan(1e-5);
    expect(castRay(scanSurface(scan), above, new Vector3(0, -1, 0))!.faceIndex).toBe(hit!.faceIndex);
  });

  it('has no floor level under the stated Z up: its one big surface faces down, as in an RGB-D camera frame', () => {
    expect(scan.floors).toEqual([]);
    // Nearly all of its 2.7 m² is one surface whose normal is ~26° from −Z (towards the camera
    // when Z is viewing depth). Turned so that normal points up, that surface is one floor.
    const g = scan.collision.geometry;
    const normal = dominantNormal(g);
    expect(normal.z).toBeLessThan(-0.85);
    const faceUp = new Matrix4().makeRotationFromQuaternion(new Quaternion().setFromUnitVectors(normal, new Vector3(0, 1, 0)));
    const levels = detectFloorLevels(g.getAttribute('position').array as Float32Array, g.index!.array as Uint32Array, faceUp);
    console.info(`open3d-frag_115.ply floors: Z up → [${scan.floors}], dominant surface turned up → [${levels.map((h) => h.toFixed(3))}]`);
    expect(levels).toHaveLength(1);
  });

  it('is drawn double-sided: from above (where the views look from) its faces show only their backs', () => {
    expect(scan.facing.up).toBeLessThan(1e-9 * scan.facing.total); // not one of its 127,229 faces turns its front up (bar rounding)
    expect(scan.facing.down).toBeGreaterThan(0.8 * scan.facing.total);
    expect(scan.doubleSided).toBe(true);
  });
});

describe.skipIf(!available)('the Habitat test GLBs', () => {
  it('loads simple_room with node transforms kept on the object and baked into the collision mesh', async () => {
    const room = await load('habitat-simple_room.glb', 'y');
    expect(room.stats).toMatchObject({ triangles: 84, format: 'glb' });
    // GLTFLoader drops the dot from node names (Cube.006 → Cube006).
    expect(room.object.getObjectByName('Cube006')!.scale.z).toBeCloseTo(0.5, 6);
    room.object.updateMatrixWorld(true);
    const render = new Box3().setFromObject(room.object, true);
    room.collision.geometry.computeBoundingBox();
    expect(room.collision.geometry.boundingBox!.min.distanceTo(render.min)).toBeLessThan(1e-5);
    expect(room.collision.geometry.boundingBox!.max.distanceTo(render.max)).toBeLessThan(1e-5);
    // Its cubes are modelled Z up inside a Y-up glTF; read Z up, the big slab is the floor.
    const zUp = await load('habitat-simple_room.glb', 'z');
    console.info(
      `habitat-simple_room.glb: ${room.stats.triangles} triangles; floors Y up [${room.floors.map((h) => h.toFixed(2))}], Z up [${zUp.floors.map((h) => h.toFixed(2))}]`,
    );
    expect(zUp.floors[0]).toBeCloseTo(0.145, 2);
    // Closed cubes wound outward: as much faces up as down, so back faces stay culled (the dollhouse view).
    expect(room.doubleSided).toBe(false);
    room.dispose();
    zUp.dispose();
  });

  it('loads stage_floor1 as one floor level at its plane', async () => {
    const stage = await load('habitat-stage_floor1.glb', 'y');
    expect(stage.stats).toMatchObject({ triangles: 2048, vertices: 1089 });
    console.info(`habitat-stage_floor1.glb: ${stage.stats.triangles} triangles; floors [${stage.floors.map((h) => h.toFixed(3))}]`);
    expect(stage.floors).toHaveLength(1);
    expect(Math.abs(stage.floors[0]!)).toBeLessThan(0.01);
    expect(stage.doubleSided).toBe(false); // a floor facing up shows its front from above
    stage.dispose();
  });
});

/** Area-weighted mean normal of the triangles facing mostly −Z. */
function dominantNormal(g: BufferGeometry): Vector3 {
  const p = g.getAttribute('position').array as Float32Array;
  const idx = g.index!.array as Uint32Array;
  const sum = new Vector3();
  const a = new Vector3(),
    b = new Vector3(),
    c = new Vector3();
  for (let t = 0; t < idx.length; t += 3) {
    a.fromArray(p, idx[t]! * 3);
    b.fromArray(p, idx[t + 1]! * 3).sub(a);
    c.fromArray(p, idx[t + 2]! * 3).sub(a);
    const n = b.cross(c);
    if (n.z < -0.7 * n.length()) sum.add(n);
  }
  return sum.normalize();
}
