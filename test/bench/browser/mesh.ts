// Runs inside headless Chromium for `npm run bench`: the same large GLB through Traversa's loader
// (parse + BVH in workers) and through a plain three.js GLTFLoader with no acceleration structure.
import { Box3, Mesh, Raycaster, Vector3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { loadMesh } from '../../../src/engine/mesh/load.ts';
import { pickFloor } from '../../../src/engine/mesh/pick.ts';

function longTasks() {
  const spans: number[] = [];
  const po = new PerformanceObserver((list) => { for (const e of list.getEntries()) spans.push(e.duration); });
  po.observe({ type: 'longtask', buffered: false });
  return async () => {
    await new Promise((r) => setTimeout(r, 100)); // long-task entries arrive asynchronously
    for (const e of po.takeRecords()) spans.push(e.duration);
    po.disconnect();
    return spans.length ? Math.max(...spans) : 0;
  };
}

function rays(box: Box3, n: number): { origin: Vector3; dir: Vector3 }[] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
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
  const box = new Box3().setFromObject(loaded.collision);
  const picks = rays(box, 2000);
  t0 = performance.now();
  let hits = 0;
  for (const r of picks) if (pickFloor(loaded.collision, loaded.frame, r.origin, r.dir)) hits++;
  const traversaPick = (performance.now() - t0) / picks.length;

  // Baseline: plain GLTFLoader, no acceleration structure; picking with three's Raycaster.
  stop = longTasks();
  t0 = performance.now();
  const gltf = await new GLTFLoader().parseAsync(bytes.slice(0), '');
  const plainLoad = performance.now() - t0;
  const plainLongest = await stop();
  gltf.scene.updateMatrixWorld(true);
  const meshes: Mesh[] = [];
  gltf.scene.traverse((o) => { if ((o as Mesh).isMesh) meshes.push(o as Mesh); });
  const raycaster = new Raycaster();
  const few = picks.slice(0, 40);
  t0 = performance.now();
  const plainDistances = few.map((r) => { raycaster.set(r.origin, r.dir); return raycaster.intersectObjects(meshes, false)[0]?.distance ?? null; });
  const plainPick = (performance.now() - t0) / few.length;
  const plainHits = plainDistances.filter((d) => d !== null).length;
  // Both sides must find the same surfaces, or the speed-up is meaningless.
  const disagreements = few.filter((r, i) => {
    const a = pickFloor(loaded.collision, loaded.frame, r.origin, r.dir)?.distance ?? null;
    const b = plainDistances[i]!;
    return (a === null) !== (b === null) || (a !== null && b !== null && Math.abs(a - b) > 1e-4);
  }).length;

  return {
    triangles: loaded.stats.triangles, bytes: bytes.byteLength, timings: loaded.timings,
    traversa: { load: traversaLoad, longestMainThreadTask: traversaLongest, pick: traversaPick, hits, picks: picks.length },
    plain: { load: plainLoad, longestMainThreadTask: plainLongest, pick: plainPick, hits: plainHits, picks: few.length },
    disagreements,
  };
};
(window as unknown as { benchReady: boolean }).benchReady = true;
