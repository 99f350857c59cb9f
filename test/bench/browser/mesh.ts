// Runs inside headless Chromium for `npm run bench`: the same large GLB through Traversa's loader
// (parse + BVH in workers), picked with the app's own ray caster as the viewport and the collider
// call it, and through a plain three.js GLTFLoader with no acceleration structure.
import { Box3, Mesh, Raycaster, Vector3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { loadMesh } from '../../../src/engine/mesh/load.ts';
import { castRay, newRayHit } from '../../../src/engine/rays/cast.ts';
import { scanSurface } from '../../../src/engine/rays/surface.ts';

function longTasks() {
  const spans: number[] = [];
  const po = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) spans.push(e.duration);
  });
  po.observe({ type: 'longtask', buffered: false });
  return async () => {
    await new Promise((r) => setTimeout(r, 100)); // long-task entries arrive asynchronously
    for (const e of po.takeRecords()) spans.push(e.duration);
    po.disconnect();
    return spans.length ? Math.max(...spans) : 0;
  };
}

interface Ray {
  origin: Vector3;
  dir: Vector3;
}

function rays(box: Box3, n: number): Ray[] {
  let seed = 7;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: n }, () => ({
    origin: new Vector3(box.min.x + rnd() * (box.max.x - box.min.x), box.max.y + 1, box.min.z + rnd() * (box.max.z - box.min.z)),
    dir: new Vector3(0, -1, 0),
  }));
}

(window as unknown as { runMeshBench: (base: string) => Promise<unknown> }).runMeshBench = async (base: string) => {
  const bytes = await (await fetch(`${base}house-1m.glb`)).arrayBuffer();

  // Traversa: file bytes → interactive (render object + collision mesh with its BVH).
  let stop = longTasks();
  let t0 = performance.now();
  const loaded = await loadMesh({ files: [{ name: 'house-1m.glb', data: bytes.slice(0) }] }, { upAxis: 'y', unitScale: 1 });
  const traversaLoad = performance.now() - t0;
  const traversaLongest = await stop();
  // Picking as the viewport does it (Interaction.tsx): the scan's surface, the camera ray, the slice.
  const surface = scanSurface(loaded);
  const box = new Box3().setFromObject(loaded.collision);
  const picks = rays(box, 2000);
  const slice = loaded.floors[0]! + 1.6; // the label view slices 1.6 m above the segment's floor
  const pick = (r: Ray, maxY: number) => castRay(surface, r.origin, r.dir, Infinity, undefined, { maxY });
  const timePicks = (one: (r: Ray) => unknown) => {
    const t0 = performance.now();
    let hits = 0;
    for (const r of picks) if (one(r)) hits++;
    return { pick: (performance.now() - t0) / picks.length, hits };
  };
  const open = timePicks((r) => pick(r, Infinity));
  const sliced = timePicks((r) => pick(r, slice));
  // The same rays as the collider casts its own: a list of surfaces (door flags) and one reused hit.
  const layers = [{ surface, door: false }],
    reused = newRayHit();
  const collider = timePicks((r) => castRay(layers, r.origin, r.dir, Infinity, reused));

  // Baseline: plain GLTFLoader, no acceleration structure; picking with three's Raycaster.
  stop = longTasks();
  t0 = performance.now();
  const gltf = await new GLTFLoader().parseAsync(bytes.slice(0), '');
  const plainLoad = performance.now() - t0;
  const plainLongest = await stop();
  gltf.scene.updateMatrixWorld(true);
  const meshes: Mesh[] = [];
  gltf.scene.traverse((o) => {
    if ((o as Mesh).isMesh) meshes.push(o as Mesh);
  });
  const raycaster = new Raycaster();
  const few = picks.slice(0, 40);
  t0 = performance.now();
  // Without a BVH three finds every hit along the ray (sorted): the first, and the first below the slice.
  const plainHits = few.map((r) => {
    raycaster.set(r.origin, r.dir);
    return raycaster.intersectObjects(meshes, false);
  });
  const plainPick = (performance.now() - t0) / few.length;
  const plainOpen = plainHits.map((hits) => hits[0]?.distance ?? null);
  const plainSliced = plainHits.map((hits) => hits.find((h) => h.point.y <= slice + 1e-6)?.distance ?? null);
  // Both sides must find the same surfaces, or the speed-up is meaningless.
  const differ = (a: number | null, b: number | null) => (a === null) !== (b === null) || (a !== null && b !== null && Math.abs(a - b) > 1e-4);
  const disagreements = few.filter(
    (r, i) =>
      differ(pick(r, Infinity)?.distance ?? null, plainOpen[i]!) ||
      differ(pick(r, slice)?.distance ?? null, plainSliced[i]!) ||
      differ(castRay(layers, r.origin, r.dir, Infinity, reused)?.distance ?? null, plainOpen[i]!),
  ).length;

  return {
    triangles: loaded.stats.triangles,
    bytes: bytes.byteLength,
    timings: loaded.timings,
    traversa: { load: traversaLoad, longestMainThreadTask: traversaLongest, picks: picks.length, open, sliced, collider, slice },
    plain: {
      load: plainLoad,
      longestMainThreadTask: plainLongest,
      pick: plainPick,
      hits: plainOpen.filter((d) => d !== null).length,
      slicedHits: plainSliced.filter((d) => d !== null).length,
      picks: few.length,
    },
    disagreements,
  };
};
(window as unknown as { benchReady: boolean }).benchReady = true;
