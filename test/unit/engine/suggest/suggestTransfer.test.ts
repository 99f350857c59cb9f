import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMesh } from '../../../../src/engine/mesh/load.ts';
import { prepareGeometry, suggestScene } from '../../../../src/engine/suggest/index.ts';
import { packGeometry, unpackGeometry } from '../../../../src/engine/suggest/transfer.ts';
import { SAMPLE_DIR, sampleRelease } from '../../../support/suggestTruth.ts';

// The browser computes suggestions in a worker on a packed copy of the scan (BVH included): the
// copy must give exactly the suggestions the original gives.
describe('the scan sent to the suggestion worker', () => {
  it('gives the same suggestions and measurements as the scan it was packed from', async () => {
    const bytes = readFileSync(join(SAMPLE_DIR, 'house.glb'));
    const loaded = await loadMesh(
      { files: [{ name: 'house.glb', data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }] },
      { upAxis: 'y', unitScale: 1 },
    );
    const release = sampleRelease();
    const geom = prepareGeometry(loaded);
    const { packed, transfer } = packGeometry(geom);
    // What postMessage does: a structured clone, the listed buffers moved.
    const received = unpackGeometry(structuredClone(packed, { transfer: transfer as ArrayBuffer[] }));
    expect(received.doors !== null).toBe(geom.doors !== null);
    expect(received.lifts.map((b) => b.min.toArray())).toEqual(geom.lifts.map((b) => b.min.toArray()));
    const [direct, viaCopy] = [await suggestScene(geom, release.graph, release.profiles), await suggestScene(received, release.graph, release.profiles)];
    expect(viaCopy.agents).toEqual(direct.agents);
    const untimed = (edges: typeof direct.edges) => Object.fromEntries(Object.entries(edges).map(([k, { measureMs: _ms, ...e }]) => [k, e]));
    expect(untimed(viaCopy.edges)).toEqual(untimed(direct.edges));
    // The page keeps its own scan: packing copied it.
    expect(geom.solid.geometry.getAttribute('position').count).toBeGreaterThan(0);
    loaded.dispose();
  }, 60_000);
});
