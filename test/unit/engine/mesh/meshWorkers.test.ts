import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mesh } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCollision } from '../../../../src/engine/mesh/collisionBuild.ts';
import { loadMesh, type LoadedMesh } from '../../../../src/engine/mesh/load.ts';
import { handleParseRequest } from '../../../../src/engine/mesh/parseHandler.ts';
import type { WorkerFactory } from '../../../../src/engine/mesh/workerClient.ts';
import { serveRequests, type Handler, type WorkerKind } from '../../../../src/engine/mesh/workerProtocol.ts';
import { InThreadWorker } from '../../../support/inThreadWorker.ts';
import { writeBasisScan } from '../../../support/basisScan.ts';
import { meshInput, writeObjWithMtl, writePly } from '../../../support/meshFixtures.ts';
import { MESHES_DIR, sharedAvailable } from '../../../support/shared.ts';
import { append } from '../../../../src/core/arrays.ts';

const HANDLERS: Record<WorkerKind, Handler<never, unknown>> = {
  parse: handleParseRequest as Handler<never, unknown>,
  bvh: buildCollision as Handler<never, unknown>,
};

function inThread(made: InThreadWorker[], startup: 'ok' | 'fails' = 'ok'): WorkerFactory {
  return (kind) => {
    const w = new InThreadWorker((scope) => serveRequests(scope, HANDLERS[kind]), startup);
    made.push(w);
    return w;
  };
}

const mainThread: WorkerFactory = () => null;

/** A digest of a buffer's bytes and type: deep-comparing million-element arrays is slow. */
const digest = (a: ArrayBufferView | ArrayBuffer) => {
  const bytes = a instanceof ArrayBuffer ? new Uint8Array(a) : new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return `${a.constructor.name}:${bytes.length}:${createHash('sha256').update(bytes).digest('hex')}`;
};

/** Everything a caller can observe of a load, as plain data. */
function observable(m: LoadedMesh) {
  const g = m.collision.geometry;
  const render: Record<string, string> = {};
  m.object.traverse((o) => {
    const geometry = (o as Mesh).geometry;
    if (geometry) for (const [name, a] of Object.entries(geometry.attributes)) render[`${o.name}/${name}`] = digest(a.array as Float32Array);
  });
  return {
    stats: m.stats,
    floors: m.floors,
    warnings: m.warnings,
    render,
    collisionPositions: digest(g.getAttribute('position').array as Float32Array),
    collisionIndex: digest(g.index!.array as Uint32Array),
    bvh: (g.boundsTree as unknown as { _roots: ArrayBuffer[] })._roots.map(digest),
  };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'traversa-mesh-workers-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const Z_UP = { upAxis: 'z', unitScale: 1 } as const;

describe('parsing and BVH building in workers agree with the main thread', () => {
  it.skipIf(!sharedAvailable(MESHES_DIR, 'the real-PLY worker agreement test'))('for the real PLY scan: same geometry, same BVH, same floors', async () => {
    const input = () => meshInput(join(MESHES_DIR, 'open3d-frag_115.ply'));
    const made: InThreadWorker[] = [];
    const viaWorkers = await loadMesh(input(), { ...Z_UP, createWorker: inThread(made) });
    const here = await loadMesh(input(), { ...Z_UP, createWorker: mainThread });
    expect(made.map((w) => w.terminated)).toEqual([true, true]); // one parse and one BVH worker, both ended
    expect(observable(viaWorkers)).toEqual(observable(here));
  });

  it('for an OBJ with its MTL and texture', async () => {
    const f = writeObjWithMtl(dir);
    const viaWorkers = await loadMesh(meshInput(f.obj, f.mtl, f.png), { ...Z_UP, createWorker: inThread([]) });
    const here = await loadMesh(meshInput(f.obj, f.mtl, f.png), { ...Z_UP, createWorker: mainThread });
    expect(observable(viaWorkers)).toEqual(observable(here));
  });

  it('for an HM3D-style scan whose Basis images are transcoded in the parse worker: same texture levels', async () => {
    const scan = await writeBasisScan(join(dir, 'basis'));
    const made: InThreadWorker[] = [];
    const viaWorkers = await loadMesh(meshInput(...scan.files), { upAxis: 'y', unitScale: 1, createWorker: inThread(made) });
    const here = await loadMesh(meshInput(...scan.files), { upAxis: 'y', unitScale: 1, createWorker: mainThread });
    expect(made).toHaveLength(2); // the Basis job went to a parse worker, the BVH to its own
    expect((made[0]!.received[0] as { payload: { format: string } }).payload.format).toBe('basis');
    const levels = (m: LoadedMesh) => {
      const out: string[] = [];
      m.object.traverse((o) => {
        const map = ((o as Mesh).material as { map?: { mipmaps: { data: Uint8Array }[] } } | undefined)?.map;
        if (map)
          append(
            out,
            map.mipmaps.map((l) => digest(l.data)),
          );
      });
      return out;
    };
    expect(levels(viaWorkers).length).toBeGreaterThan(1);
    expect(levels(viaWorkers)).toEqual(levels(here));
    expect(observable(viaWorkers)).toEqual(observable(here));
  });

  it('transfers the bytes it read itself, and copies a caller’s ArrayBuffer instead of taking it', async () => {
    const path = writePly(dir, 'binary').ply;
    const fromBlob: InThreadWorker[] = [];
    await loadMesh(meshInput(path), { ...Z_UP, createWorker: inThread(fromBlob) });
    expect(fromBlob[0]!.transferred).toHaveLength(1); // the file's bytes went to the parse worker

    const bytes = await (meshInput(path).files[0]!.data as Blob).arrayBuffer();
    const fromCaller: InThreadWorker[] = [];
    await loadMesh({ files: [{ name: 'room.ply', data: bytes }] }, { ...Z_UP, createWorker: inThread(fromCaller) });
    expect(fromCaller[0]!.transferred).toEqual([]);
    expect(bytes.byteLength).toBeGreaterThan(0); // still the caller's, not detached
    expect(fromCaller[1]!.transferred.length).toBeGreaterThan(0); // the BVH worker takes the merged buffers we made
  });
});

describe('when workers misbehave', () => {
  it('does the work on the main thread when a worker cannot start', async () => {
    const made: InThreadWorker[] = [];
    const m = await loadMesh(meshInput(writePly(dir, 'binary').ply), { ...Z_UP, createWorker: inThread(made, 'fails') });
    expect(m.stats.triangles).toBe(34);
    expect(made).toHaveLength(2);
    expect(made.every((w) => w.received.length === 0)).toBe(true); // nothing was handed to them
  });

  it('reports a failure inside the worker as the load’s failure', async () => {
    const failing: WorkerFactory = () =>
      new InThreadWorker((scope) =>
        serveRequests(scope, () => {
          throw new RangeError('Array buffer allocation failed');
        }),
      );
    await expect(loadMesh(meshInput(writePly(dir, 'binary').ply), { ...Z_UP, createWorker: failing })).rejects.toThrow(
      'room-binary.ply: could not be loaded (Array buffer allocation failed)',
    );
  });

  it('gives up with a MeshLoadError when a started worker goes quiet', async () => {
    const quiet: WorkerFactory = () => {
      const w = new InThreadWorker((scope) => serveRequests(scope, HANDLERS.parse));
      w.postMessage = () => {}; // the job is swallowed: no answer will come
      return w;
    };
    await expect(loadMesh(meshInput(writePly(dir, 'binary').ply), { ...Z_UP, createWorker: quiet, timeoutMs: 50 })).rejects.toThrow(
      'room-binary.ply: parsing did not finish within 0.1 s (the file may be too large for this machine)',
    );
  });

  it('terminates the worker when the load is aborted', async () => {
    const made: InThreadWorker[] = [];
    const abort = new AbortController();
    const loading = loadMesh(meshInput(writePly(dir, 'binary').ply), { ...Z_UP, createWorker: inThread(made) }, undefined, abort.signal);
    setTimeout(() => abort.abort(), 0);
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' });
    expect(made.every((w) => w.terminated)).toBe(true);
  });
});
