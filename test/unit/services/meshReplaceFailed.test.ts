import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MeshManager } from '../../../src/services/meshManager.ts';
import { TraversaDb } from '../../../src/persistence/db.ts';
import { applyEdit } from '../../../src/state/edits.ts';
import { replaceDocument } from '../../../src/state/history.ts';
import { SCAN_EDITS } from '../../../src/state/scanEdits.ts';
import { createStudioStore, type MeshStatus } from '../../../src/state/store.ts';
import { writeCorruptGlb, writePly } from '../../support/meshFixtures.ts';
import { twoStoreyProject } from '../../support/twoStoreys.ts';

const dir = join(tmpdir(), 'traversa-mesh-replace');
const picked = (path: string) => [{ path: basename(path), file: new File([readFileSync(path)], basename(path)) }];

/** A picked file the browser hands over only when `release` is called: a load of it waits on its bytes meanwhile. */
function gated(path: string) {
  const [slow] = picked(path);
  let release!: () => void;
  const arrived = new Promise<void>((r) => {
    release = r;
  });
  const whole = slow!.file.stream();
  Object.defineProperty(slow!.file, 'stream', {
    value: () =>
      new ReadableStream({
        async start(c) {
          await arrived;
          for (const reader = whole.getReader(); ;) {
            const { done, value } = await reader.read();
            if (done) break;
            c.enqueue(value);
          }
          c.close();
        },
      }),
  });
  return { files: [slow!], release };
}

async function studioWithScan() {
  const store = createStudioStore();
  replaceDocument(store, twoStoreyProject());
  store.setState((s) => ({ session: { ...s.session, sceneId: 'HOUSE' } }));
  const db = new TraversaDb(`traversa-mesh-replace-${Math.random()}`);
  const meshes = new MeshManager(store, db);
  expect(await meshes.attach('HOUSE', picked(writePly(dir, 'binary').ply))).toBe(true);
  const status = () => store.getState().meshes.HOUSE as Extract<MeshStatus, { state: 'ready' }>;
  return { store, meshes, status, db };
}

describe('a scan that fails to replace the loaded one', () => {
  it('keeps its message while the kept scan is drawn again or turned, until the next attempt', async () => {
    const { store, meshes, status } = await studioWithScan();
    const triangles = status().triangles;
    expect(await meshes.attach('HOUSE', picked(writeCorruptGlb(dir).glb))).toBe(false);
    const said = 'corrupt.glb: not a glTF binary (bad magic bytes) — the current scan is unchanged.';
    expect(status()).toMatchObject({ state: 'ready', triangles, error: said });

    meshes.reportCoverage('HOUSE', 0.3); // the viewport drew the kept scan
    expect(status().error).toBe(said);
    applyEdit(store, SCAN_EDITS.frame, { sceneId: 'HOUSE', frame: { upAxis: 'y' } });
    expect(status().error).toBe(said);
    expect(store.getState().document.project!.scenes[0]!.mesh!.mainFile).toBe('room-binary.ply'); // the kept scan is still the scene's

    expect(await meshes.attach('HOUSE', picked(writePly(dir, 'ascii').ply))).toBe(true);
    expect(status().error).toBeUndefined();
    meshes.reportCoverage('HOUSE', 0.2);
    expect(status().error).toBeUndefined();
  });

  it('while a replacement loads, its progress stays on screen when the kept scan is drawn again or turned', async () => {
    const { store, meshes, status } = await studioWithScan();
    const slow = gated(writePly(dir, 'ascii').ply);
    const replacing = meshes.attach('HOUSE', slow.files);
    const state = () => store.getState().meshes.HOUSE?.state;
    await vi.waitFor(() => expect(state()).toBe('loading'));
    meshes.reportCoverage('HOUSE', 0.4);
    expect(state()).toBe('loading');
    applyEdit(store, SCAN_EDITS.frame, { sceneId: 'HOUSE', frame: { unitScale: 0.01 } });
    expect(state()).toBe('loading');
    slow.release();
    expect(await replacing).toBe(true);
    expect(status()).toMatchObject({ state: 'ready', triangles: 34 });
  });

  it('a scan that loads but cannot be stored is refused like a broken one, and the bar does not stay on "loading"', async () => {
    const { store, meshes, status, db } = await studioWithScan();
    const triangles = status().triangles;
    vi.spyOn(db.meshFiles, 'put').mockRejectedValueOnce(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
    expect(await meshes.attach('HOUSE', picked(writePly(dir, 'ascii').ply))).toBe(false);
    expect(status()).toMatchObject({ state: 'ready', triangles });
    expect(status().error).toBe(
      'room-ascii.ply: it loaded but this browser could not store it (the browser has no storage space left for this site) — the current scan is unchanged.',
    );
    expect(store.getState().document.project!.scenes[0]!.mesh!.mainFile).toBe('room-binary.ply');
  });

  it('two replacements at once: one that fails after the other succeeded leaves its message with the scan now loaded', async () => {
    const { store, meshes, status } = await studioWithScan();
    const broken = gated(writeCorruptGlb(dir).glb);
    const failing = meshes.attach('HOUSE', broken.files);
    expect(await meshes.attach('HOUSE', picked(writePly(dir, 'ascii').ply))).toBe(true);
    broken.release();
    expect(await failing).toBe(false);
    const said = 'corrupt.glb: not a glTF binary (bad magic bytes) — the current scan is unchanged.';
    expect(status().error).toBe(said);
    meshes.reportCoverage('HOUSE', 0.3);
    expect(status().error).toBe(said);
    expect(store.getState().document.project!.scenes[0]!.mesh!.mainFile).toBe('room-ascii.ply');
  });

  it('two replacements at once, both good: each replaced scan is freed once, and the last one loaded is kept', async () => {
    const { store, meshes } = await studioWithScan();
    const first = meshes.get('HOUSE')!;
    const firstFreed = vi.spyOn(first, 'dispose');
    const slow = gated(writePly(dir, 'ascii').ply);
    const slowAttach = meshes.attach('HOUSE', slow.files);
    expect(await meshes.attach('HOUSE', picked(writePly(dir, 'binary').ply))).toBe(true);
    const quick = meshes.get('HOUSE')!;
    const quickFreed = vi.spyOn(quick, 'dispose');
    expect(firstFreed).toHaveBeenCalledTimes(1);
    slow.release();
    expect(await slowAttach).toBe(true);
    expect(quickFreed).toHaveBeenCalledTimes(1);
    expect(firstFreed).toHaveBeenCalledTimes(1);
    expect(meshes.get('HOUSE')).not.toBe(quick);
    expect(store.getState().document.project!.scenes[0]!.mesh!.mainFile).toBe('room-ascii.ply');
  });
});
