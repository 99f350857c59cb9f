import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MeshManager } from '../../src/app/meshManager.ts';
import { TraversaDb } from '../../src/persistence/db.ts';
import { applyEdit } from '../../src/state/edits.ts';
import { replaceDocument } from '../../src/state/history.ts';
import { SCAN_EDITS } from '../../src/state/scanEdits.ts';
import { createStudioStore, type MeshStatus } from '../../src/state/store.ts';
import { writeCorruptGlb, writePly } from '../support/meshFixtures.ts';
import { twoStoreyProject } from '../support/twoStoreys.ts';

const dir = join(tmpdir(), 'traversa-mesh-replace');
const picked = (path: string) => [{ path: basename(path), file: new File([readFileSync(path)], basename(path)) }];

async function studioWithScan() {
  const store = createStudioStore();
  replaceDocument(store, twoStoreyProject());
  store.setState((s) => ({ session: { ...s.session, sceneId: 'HOUSE' } }));
  const meshes = new MeshManager(store, new TraversaDb(`traversa-mesh-replace-${Math.random()}`));
  expect(await meshes.attach('HOUSE', picked(writePly(dir, 'binary').ply))).toBe(true);
  const status = () => store.getState().meshes.HOUSE as Extract<MeshStatus, { state: 'ready' }>;
  return { store, meshes, status };
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
    expect(store.getState().document.project!.scenes[0]!.mesh!.mainFile).toMatch(/\.ply$/); // the kept scan is still the scene's

    expect(await meshes.attach('HOUSE', picked(writePly(dir, 'ascii').ply))).toBe(true);
    expect(status().error).toBeUndefined();
    meshes.reportCoverage('HOUSE', 0.2);
    expect(status().error).toBeUndefined();
  });
});
