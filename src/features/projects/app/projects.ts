import { emptyProject } from '../../../core/project.ts';
import type { TraversaDb } from '../../../persistence/db.ts';
import { errorText, startProjectStorage, type ProjectStorage } from '../../../persistence/projectStorage.ts';
import { PROJECT_EDITS } from '../../../state/commands.ts';
import { applyEdit } from '../../../state/edits.ts';
import type { StudioStore } from '../../../state/store.ts';
import { sampleProject } from '../../../services/sample.ts';

const TAB_KEY = 'traversa.project';
const BROWSER_KEY = 'traversa.lastProject';

/** Which project a tab had open: its own after a reload, else the one opened last in this browser. */
const memory = {
  get: (): string | null => {
    try {
      return sessionStorage.getItem(TAB_KEY) ?? localStorage.getItem(BROWSER_KEY);
    } catch {
      return null;
    }
  },
  set: (id: string) => {
    try {
      sessionStorage.setItem(TAB_KEY, id);
      localStorage.setItem(BROWSER_KEY, id);
    } catch {
      /* not remembering is fine */
    }
  },
};

/** The project list's actions, over the stored projects (persistence/projectStorage.ts). */
export class Projects {
  storage: ProjectStorage | null = null;

  constructor(
    private readonly store: StudioStore,
    private readonly db: TraversaDb,
  ) {}

  private starting: Promise<ProjectStorage> | null = null;

  /** Open the tab's project; on a first start (no project at all) the sample house. */
  start(): Promise<ProjectStorage> {
    return (this.starting ??= this.begin());
  }

  /** Resolves once the tab's first project has opened (or failed to): what waits for the studio to open waits for this. */
  started = (): Promise<unknown> => this.starting ?? Promise.resolve();

  private async begin(): Promise<ProjectStorage> {
    this.storage = await startProjectStorage(this.store, this.db, { memory });
    const { workspace, storage } = this.store.getState();
    if (!workspace.projectId && workspace.projects.length === 0 && storage.status !== 'error') await this.openSample();
    return this.storage;
  }

  flush = (): Promise<void> => this.storage?.flush() ?? Promise.resolve();

  /** The sample house: the stored one if there is one, else a new project made from the bundled files. */
  async openSample(): Promise<void> {
    const storage = this.storage;
    if (!storage) return;
    const existing = this.store.getState().workspace.projects.find((p) => p.origin === 'sample');
    // Where the user lands is set before the project shows (it shows while its records commit),
    // so a key pressed as soon as the house appears is not undone afterwards.
    const land = (sceneId: string | null) => this.store.setState((s) => ({ session: { ...s.session, sceneId, view: 'scene', camera: 'orbit' } }));
    try {
      if (existing) {
        land(null);
        await storage.open(existing.id);
        const first = this.store.getState().document.project?.scenes[0]?.id ?? null;
        if (!this.store.getState().session.sceneId) this.store.setState((s) => ({ session: { ...s.session, sceneId: first } }));
      } else {
        this.store.setState({ storage: { status: 'loading', message: 'Opening the sample house…' } });
        const project = await sampleProject(this.db);
        land(project.scenes[0]?.id ?? null);
        await storage.create(project, { origin: 'sample' });
      }
    } catch (e) {
      this.store.setState({ storage: { status: 'error', message: `Could not open the sample house: ${errorText(e)}` } });
    }
  }

  async newProject(): Promise<void> {
    this.store.setState((s) => ({ session: { ...s.session, sceneId: null, view: 'overview' } }));
    await this.storage?.create(emptyProject('New project'));
  }

  open = async (id: string): Promise<void> => {
    if (await this.storage?.open(id)) this.store.setState((s) => ({ session: { ...s.session, view: 'overview' } }));
  };

  /** Rename: the open project by an edit of its document (undoable, seen by other tabs), another one in its stored records. */
  async rename(id: string, name: string): Promise<void> {
    const clean = name.trim();
    if (!clean) return;
    if (id === this.store.getState().workspace.projectId) applyEdit(this.store, PROJECT_EDITS.rename, { name: clean });
    else await this.storage?.rename(id, clean);
  }

  duplicate = async (id: string): Promise<void> => {
    await this.storage?.duplicate(id);
  };

  /** Delete a project (the list asked for confirmation); with the open one gone, the most recent other opens. */
  async remove(id: string): Promise<void> {
    const storage = this.storage;
    if (!storage) return;
    const wasOpen = id === this.store.getState().workspace.projectId;
    await storage.remove(id);
    const next = this.store.getState().workspace.projects[0];
    if (wasOpen && next) await storage.open(next.id);
  }
}
