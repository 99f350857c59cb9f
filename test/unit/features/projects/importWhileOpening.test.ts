import { describe, expect, it } from 'vitest';
import { Importer } from '../../../../src/features/projects/app/importRelease.ts';
import type { ProjectStorage } from '../../../../src/persistence/projectStorage.ts';
import type { ProjectRow } from '../../../../src/persistence/db.ts';
import { replaceDocument } from '../../../../src/state/history.ts';
import { createStudioStore } from '../../../../src/state/store.ts';
import type { Project } from '../../../../src/core/project.ts';
import { houseScene, releaseFiles } from '../../../support/releaseBuilder.ts';

// A folder picked while the stored project is still opening (a large project's reload takes
// seconds) is read once the project has opened: it used to be answered "still opening", a report
// the opening then cleared, so the pick vanished without a word.

const picked = () =>
  releaseFiles([houseScene('HM3D00077')], { root: 'late' }).map((f) => ({ path: f.path, file: new File([f.text], f.path.split('/').pop()!) }));

function storageStub(store: ReturnType<typeof createStudioStore>, created: Project[]): ProjectStorage {
  return {
    flush: async () => {},
    create: async (project: Project) => {
      created.push(project);
      replaceDocument(store, project);
      return { id: 'p-new' } as ProjectRow;
    },
  } as unknown as ProjectStorage;
}

describe('a folder picked while the stored project opens', () => {
  it('waits for the open, then comes in as a new project with its report; nothing is said "busy" meanwhile', async () => {
    const store = createStudioStore();
    store.setState({ storage: { status: 'loading', message: 'Opening the project…' } });
    const created: Project[] = [];
    let storage: ProjectStorage | null = null;
    let opened!: () => void;
    const started = new Promise<void>((r) => (opened = r));
    const importer = new Importer(
      store,
      () => storage,
      undefined,
      () => started,
    );
    const reading = importer.read(picked());
    await new Promise((r) => setTimeout(r, 20));
    expect(store.getState().importReport).toBeNull();
    expect(created).toHaveLength(0);
    // The open finishes (with nothing open: a first start), and the pick is read.
    storage = storageStub(store, created);
    store.setState({ storage: { status: 'saved', savedAt: Date.now() } });
    opened();
    expect(await reading).toBe(true);
    expect(created.map((p) => p.scenes.map((s) => s.id))).toEqual([['HM3D00077']]);
    expect(store.getState().importReport).toMatchObject({ source: 'late', accepted: true, outcome: 'new-project' });
  });

  it('a studio whose storage never starts still says why, once its opening has ended', async () => {
    const store = createStudioStore();
    const importer = new Importer(
      store,
      () => null,
      undefined,
      async () => {},
    );
    expect(await importer.read(picked())).toBe(false);
    expect(store.getState().importReport?.problems.map((p) => p.code)).toEqual(['import.busy']);
  });
});
