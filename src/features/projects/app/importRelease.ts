import type { Problem } from '../../../core/problems.ts';
import type { Project } from '../../../core/project.ts';
import { sceneStats } from '../../../core/stats.ts';
import { mergeChanges, planMerge, type MergePlan } from '../../../core/records/merge.ts';
import { sceneStorageProblems, storageProblems } from '../../../core/records/storable.ts';
import { ReleaseReader, sceneOrder } from '../../../formats/capnav/read.ts';
import type { SourceFile } from '../../../formats/json.ts';
import { looksLikeBundle, readBundle } from '../../../formats/bundle.ts';
import { errorText, type ProjectStorage } from '../../../persistence/projectStorage.ts';
import { sceneBodyText } from '../../../persistence/recordStore.ts';
import { PROJECT_EDITS } from '../../../state/commands.ts';
import { applyEdit } from '../../../state/edits.ts';
import type { StudioStore } from '../../../state/store.ts';
import { readPickedInOrder, type PickedFile } from '../../../ui/pickedFiles.ts';
import type { SceneVideo } from '../../../persistence/videos.ts';
import { readTours } from '../../tour/app/importTours.ts';

/** The folder name the files share, used as the project's name. */
export function commonFolder(paths: readonly string[]): string | null {
  const firsts = new Set(paths.map((p) => (p.includes('/') ? p.split('/')[0]! : '')));
  return firsts.size === 1 && !firsts.has('') ? [...firsts][0]! : null;
}

/** For a pick with no release file in it: what it did hold, so the user sees which folder that was. */
function whatWasPicked(picked: readonly PickedFile[]): Problem {
  const names = picked
    .slice(0, 5)
    .map((p) => p.path)
    .join(', ');
  const message =
    picked.length === 0
      ? 'the browser gave no files from it (an empty folder)'
      : `it holds ${picked.length} other file${picked.length === 1 ? '' : 's'}: ${names}${picked.length > 5 ? ', …' : ''}`;
  return { severity: 'fatal', code: 'release.empty', file: '', location: '', message };
}

/**
 * Importing a CapNav release or a Traversa bundle. The files are read and checked first; nothing
 * changes when they are refused (the report says which file is wrong and where, including
 * anything that could not be stored). An accepted import with a project open waits for the
 * user: open it as a new project of the list, or merge it into the open one — the merge is shown
 * first with every conflict, and changes nothing until confirmed (then it is one undo step).
 */
export class Importer {
  private pending: { project: Project; plan: MergePlan | null; videos: Map<string, SceneVideo> } | null = null;

  /** `saveVideo`: keep a scene's touring video with a project (persistence/videos.ts). */
  constructor(
    private readonly store: StudioStore,
    private readonly storage: () => ProjectStorage | null,
    private readonly saveVideo: (projectId: string, sceneId: string, video: SceneVideo) => Promise<void> = async () => {},
    /** Resolves once the studio's first project has opened (Projects.started). */
    private readonly started: () => Promise<unknown> = async () => {},
  ) {}

  async read(picked: readonly PickedFile[]): Promise<boolean> {
    const { store } = this;
    // Files picked while a stored project opens are read once it has opened (its opening would
    // otherwise clear the report of an import made meanwhile): the pick is neither lost nor refused.
    const opening = () => store.getState().storage.status === 'loading' || !this.storage();
    if (opening()) {
      await this.started();
      await this.storage()?.flush();
    }
    if (opening()) {
      store.setState({
        importReport: {
          source: 'import',
          accepted: false,
          at: Date.now(),
          problems: [
            { severity: 'fatal', code: 'import.busy', file: '', location: '', message: 'the stored project is still opening; import again in a moment' },
          ],
        },
      });
      return false;
    }
    const json = picked.filter((p) => p.path.toLowerCase().endsWith('.json'));
    const folder = commonFolder(picked.map((p) => p.path));
    const source = folder ?? `${picked.length} file${picked.length === 1 ? '' : 's'}`;
    // Read as a release while its files arrive: each scene read is checked for storage, counted
    // for the statistics the import opens on and written as the text it is stored as, while later
    // files are still being read (all kept per scene). One JSON file may instead be a bundle, so it is kept as well.
    const release = new ReleaseReader(
      json.map((p) => p.path),
      folder ?? 'CapNav release',
    );
    const files: SourceFile[] = [];
    const undecodable = await readPickedInOrder(sceneOrder(json), (f) => {
      if (json.length === 1) files.push(f);
      const scene = release.add(f);
      if (scene) {
        sceneStorageProblems(scene);
        sceneStats(scene);
        sceneBodyText(scene);
      }
    });
    const bundle = files.length === 1 && looksLikeBundle(files[0]!);
    const read = bundle ? readBundle(files[0]!) : release.finish();
    const unstorable = read.project ? storageProblems(read.project) : [];
    if (!read.project || unstorable.length || undecodable.length) {
      this.pending = null;
      // A file in another encoding is the refusal's reason, even when no other file was a release file.
      if (!bundle && !undecodable.length && read.problems.some((p) => p.code === 'release.empty')) {
        // Nothing in the pick was a release file: say so, and what the pick held instead.
        const problems = [...read.problems.filter((p) => p.code !== 'release.empty'), whatWasPicked(picked)];
        const empty = folder || picked.length === 0 ? 'folder' : 'files';
        store.setState({ importReport: { source, accepted: false, empty, problems, at: Date.now() } });
        return false;
      }
      store.setState({ importReport: { source, accepted: false, problems: [...undecodable, ...read.problems, ...unstorable], at: Date.now() } });
      return false;
    }
    // The touring videos it carries (videos/, frames/), kept with the project when it opens as a new one.
    const tours = bundle ? { videos: new Map<string, SceneVideo>(), problems: [] } : await readTours(picked, new Set(read.project.scenes.map((s) => s.id)));
    const problems = [...read.problems, ...tours.problems];
    const open = store.getState().document.project;
    if (!open) return this.asNewProject(read.project, source, problems, tours.videos);
    this.pending = { project: read.project, plan: null, videos: tours.videos };
    store.setState({ importReport: { source, accepted: false, awaiting: { into: open.name, merge: null }, problems, at: Date.now() } });
    return true;
  }

  /** The import waiting for a choice becomes a new project of the list, opened. */
  async openAsNew(): Promise<boolean> {
    const report = this.store.getState().importReport;
    if (!this.pending || !report) return false;
    const { project, videos } = this.pending;
    this.pending = null;
    return this.asNewProject(project, report.source, report.problems, videos);
  }

  private async asNewProject(
    project: Project,
    source: string,
    problems: NonNullable<ReturnType<StudioStore['getState']>['importReport']>['problems'],
    videos: ReadonlyMap<string, SceneVideo>,
  ): Promise<boolean> {
    const storage = this.storage();
    if (!storage) return false;
    // The new project opens, reported as imported, from the moment it is shown (while the browser
    // still commits its records; the storage status says "Saving…" until it has), so the overview is
    // drawn then rather than after "Saved".
    const shown = this.store.subscribe((s) => {
      if (s.document.project !== project) return;
      shown();
      this.store.setState((st) => ({
        importReport: { source, accepted: true, outcome: 'new-project', problems, at: Date.now() },
        session: { ...st.session, sceneId: project.scenes[0]?.id ?? null, questionIndex: null, view: 'overview' },
      }));
    });
    let row;
    try {
      row = await storage.create(project);
    } catch (e) {
      // Nothing of it was stored, and what was open is open again (projectStorage.create).
      this.store.setState({
        importReport: {
          source,
          accepted: false,
          at: Date.now(),
          problems: [
            ...problems,
            { severity: 'fatal', code: 'import.unstored', file: '', location: '', message: `this browser could not store it: ${errorText(e)}` },
          ],
        },
      });
      return false;
    } finally {
      shown();
    }
    const unstored: Problem[] = [];
    for (const [sceneId, video] of videos) {
      try {
        await this.saveVideo(row.id, sceneId, video);
      } catch (e) {
        unstored.push({
          severity: 'warning',
          code: 'tour.unstored',
          file: `videos/${sceneId}`,
          location: '',
          message: `the touring video of ${sceneId} could not be stored in this browser: ${errorText(e)}`,
        });
      }
    }
    if (unstored.length)
      this.store.setState((st) => ({ importReport: st.importReport && { ...st.importReport, problems: [...st.importReport.problems, ...unstored] } }));
    return true;
  }

  /** Show what merging the waiting import into the open project would do, conflicts first. */
  previewMerge(): void {
    const open = this.store.getState().document.project;
    const report = this.store.getState().importReport;
    if (!this.pending || !open || !report) return;
    const plan = planMerge(open, this.pending.project);
    this.pending = { ...this.pending, plan };
    const merge = { added: plan.adds.length, same: plan.same, conflicts: plan.conflicts.map(({ key, what, mine, theirs }) => ({ key, what, mine, theirs })) };
    this.store.setState({ importReport: { ...report, awaiting: { into: open.name, merge } } });
  }

  /** Merge the waiting import (its side wins the conflicts in `theirs`); one undo step. */
  confirmMerge(theirs: ReadonlySet<string>): boolean {
    const report = this.store.getState().importReport;
    const open = this.store.getState().document.project;
    if (!this.pending?.plan || !report || !open) return false;
    const plan = this.pending.plan;
    const changes = mergeChanges(plan, theirs);
    const videos = this.pending.videos.size;
    this.pending = null;
    applyEdit(this.store, PROJECT_EDITS.merge, { changes });
    const replaced = plan.conflicts.filter((c) => theirs.has(c.key)).length;
    const notMerged: Problem[] = videos
      ? [
          {
            severity: 'warning',
            code: 'tour.not-merged',
            file: 'videos/',
            location: '',
            message: `${videos} touring video${videos === 1 ? ' was' : 's were'} not imported: a merge keeps the open project's videos (import as a new project to bring them)`,
          },
        ]
      : [];
    this.store.setState({
      importReport: {
        source: report.source,
        accepted: true,
        outcome: 'merged',
        problems: [...report.problems, ...notMerged],
        at: Date.now(),
        merged: { added: plan.adds.length, replaced, kept: plan.conflicts.length - replaced },
      },
    });
    return true;
  }

  cancel(): void {
    this.pending = null;
    this.store.setState({ importReport: null });
  }
}
