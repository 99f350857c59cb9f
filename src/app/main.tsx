// Composition root: wires the store, persistence, IO actions, commands and the React tree.
import './features.ts';
import { setOfMarkPictures } from '../features/qa/app/setOfMark.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { deleteUnreferencedMeshes } from '../persistence/meshStore.ts';
import { TraversaDb } from '../persistence/db.ts';
import { createStudioStore } from '../state/store.ts';
import { StudioContext } from '../state/useStudio.ts';
import { ActionsContext, type StudioActions } from '../ui/actions.ts';
import { App } from '../shell/App.tsx';
import { FOLDER_INPUT_ID } from '../ui/pickedFiles.ts';
import { readPickedText } from '../ui/pickedFiles.ts';
import { formatProblem } from '../core/problems.ts';
import { download, exportedNotice, releaseZipWithVideos, safeName } from '../services/exportRelease.ts';
import { writeBundle } from '../formats/bundle.ts';
import { table2Csv, table2Latex } from '../formats/table2.ts';
import { table2, table2Title } from '../core/scoring/paper/table2.ts';
import { agentOrder } from '../core/agents.ts';
import { strToU8 } from 'fflate';
import { commonFolder, Importer } from '../features/projects/app/importRelease.ts';
import { Projects } from '../features/projects/app/projects.ts';
import { TeamSync } from '../persistence/teamSync.ts';
import { ScoringRunner } from '../features/scoring/app/scoring.ts';
import type { ReportFiles } from '../core/scoring/workerProtocol.ts';
import { QaAnswersRunner } from '../features/scoring/app/qaScoring.ts';
import { MeshManager } from '../services/meshManager.ts';
import { buildCommands, runById } from './commandRegistry.ts';
import { driveKeys, followAutoApprove, followSceneInQueue } from '../features/labelling/app/labelling.ts';
import { DriveController } from '../features/drive/app/drive.ts';
import { rememberSession } from '../services/sessionMemory.ts';
import { SuggestionRunner } from '../features/suggestions/app/suggestions.ts';
import { compareLabelFiles, exportQaZip, importQaFiles, importTaxonomyFile } from '../features/qa/app/qaFiles.ts';
import { saveSceneVideo } from '../persistence/videos.ts';
import { MeshRegistryContext } from '../viewport/meshRuntime.ts';
import { TaskGenerator, videoSeconds } from '../features/tasks/app/taskGeneration.ts';
import { TourRunner } from '../features/tour/app/tour.ts';
import '../ui/styles.css';

const store = createStudioStore();
const db = new TraversaDb();
const meshes = new MeshManager(store, db);
const suggestions = new SuggestionRunner(store, meshes, db);
const scorer = new ScoringRunner(store, db);
const qaAnswers = new QaAnswersRunner(store);
const tasks = new TaskGenerator(store, db, () => flush());
const tour = new TourRunner(store, meshes, db);
followAutoApprove(store);
followSceneInQueue(store);
const projects = new Projects(store, db);
const flush = () => projects.flush();
const importer = new Importer(
  store,
  () => projects.storage,
  (projectId, sceneId, video) => saveSceneVideo(db, projectId, sceneId, video),
);
const openSample = () => projects.openSample();
let team: TeamSync | null = null;
/** A team database's password, kept for this tab only (sessionStorage): a new tab or a restarted browser asks again. */
const passwords = {
  get: (id: string) => {
    try {
      return sessionStorage.getItem(`traversa.team.${id}`);
    } catch {
      return null;
    }
  },
  set: (id: string, pw: string) => {
    try {
      sessionStorage.setItem(`traversa.team.${id}`, pw);
    } catch {
      /* asked again next time */
    }
  },
  clear: (id: string) => {
    try {
      sessionStorage.removeItem(`traversa.team.${id}`);
    } catch {
      /* nothing kept */
    }
  },
};
const notReady = 'The studio is still opening; try again in a moment.';

const tell = (notice: string) => store.setState((s) => ({ ephemeral: { ...s.ephemeral, notice } }));

const exportRelease = async () => {
  const {
    document: { project },
    workspace,
  } = store.getState();
  if (!project) return;
  try {
    // The scenes' touring videos go with it (videos/, frames/).
    const zip = await releaseZipWithVideos(project, db, workspace.projectId);
    download(zip.name, zip.bytes);
    tell(exportedNotice(zip));
  } catch (e) {
    tell(`Export refused: ${e instanceof Error ? e.message : String(e)}`);
  }
};

/** Table 2 of the scored models, written as `score --table2` writes it. */
const exportTable2 = (format: 'csv' | 'tex') => {
  const { scoring, document: doc } = store.getState();
  if (!scoring.reports.length || !doc.project) {
    tell('Nothing to export: score first.');
    return;
  }
  const t = table2(scoring.reports, agentOrder(doc.project.profiles));
  const title = table2Title(
    doc.project.name,
    scoring.reports.map(([m]) => m),
    scoring.reports[0]![1].settings,
  );
  const text = format === 'csv' ? table2Csv(t, title) : table2Latex(t, title);
  download(`${safeName(doc.project.name) || 'traversa'}-table2.${format}`, strToU8(text), format === 'csv' ? 'text/csv' : 'application/x-tex');
};

/** A Score view download; a failure is said, never swallowed (a click that gives no file and no word looks like a dead button). */
const exportScores = async (name: string, pick: (f: ReportFiles) => string, type: string) => {
  try {
    const f = await scorer.reportFiles();
    if (f) download(name, strToU8(pick(f)), type);
    else tell('Nothing to export: score first.');
  } catch (e) {
    tell(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
  }
};
const drive = new DriveController(store, meshes, tell, (loaded, profile, a, b) => suggestions.drive(loaded, profile, a, b));
driveKeys(store, drive);
const commands = buildCommands({
  store,
  flush: () => flush(),
  tell,
  drive,
  project: {
    importFolder: () => document.getElementById(FOLDER_INPUT_ID)?.click(),
    openSample: () => void openSample(),
    exportRelease: () => void exportRelease(),
    exportBundle: () => {
      const p = store.getState().document.project;
      if (p) {
        const f = writeBundle(p);
        download(f.path, strToU8(f.text), 'application/json');
      }
    },
  },
  tour: {
    runner: tour,
    confirmReplace: (sceneId) => Promise.resolve(window.confirm(`Replace the stored tour video of ${sceneId}? The new recording takes its place.`)),
  },
});

const actions: StudioActions = {
  commands,
  runCommand: (id) => void runById(store, commands, id),
  computeSuggestions: (sceneId) => suggestions.compute(sceneId),
  scoring: {
    loadFiles: async (picked) => {
      const wanted = picked.filter((p) => /\.(json|jsonl|txt)$/i.test(p.path));
      const { files, problems } = await readPickedText(wanted.map((p) => ({ ...p, path: p.path.split('/').slice(1).join('/') || p.path })));
      if (problems.length) {
        tell(`Not loaded: ${problems.map(formatProblem).join('; ')}`);
        return;
      }
      const folder = commonFolder(picked.map((p) => p.path));
      scorer.load(files, folder ?? `${picked.length} files`, folder ?? (picked.length === 1 ? picked[0]!.path : ''));
    },
    addBaseline: (kind) => scorer.addBaseline(kind),
    run: () => scorer.run(),
    cancel: () => scorer.cancel(),
    open: (model, i) => scorer.open(model, i),
    openCompare: (record) => scorer.openCompare(record),
    exportJson: () => exportScores('traversa-scores.json', (f) => f.json, 'application/json'),
    exportCsv: () => exportScores('traversa-records.csv', (f) => f.csv, 'text/csv'),
    exportTable2: (format) => exportTable2(format),
    referenceFiles: () => scorer.referenceFiles(),
    saveFile: (name, bytes, type) => download(`${safeName(store.getState().document.project?.name ?? '') || 'traversa'}-${name}`, bytes, type),
  },
  qaAnswers: {
    load: (files) => qaAnswers.load(files),
    clear: () => qaAnswers.clear(),
    exportJson: () => qaAnswers.exportJson(),
    loadReasoningScores: (files) => qaAnswers.loadReasoningScores(files),
    setReasoningJudge: (judge) => qaAnswers.setReasoningJudge(judge),
    cancelReasoning: () => qaAnswers.cancelReasoning(),
  },
  qa: {
    importFiles: (files) => importQaFiles(store, files, () => flush()),
    exportBundle: () => exportQaZip(store, tell, (project) => setOfMarkPictures(project, meshes.get)),
    compareLabels: (files) => compareLabelFiles(store, files),
    importTaxonomy: (file) => importTaxonomyFile(store, file),
  },
  tasks: {
    generate: () => tasks.run(),
    cancel: () => tasks.cancel(),
    videoInfo: (sceneId) => tasks.videoInfo(sceneId),
    videoFile: async (sceneId) => {
      const v = await tasks.sceneVideo(sceneId);
      return v ? { blob: v.blob, seconds: videoSeconds(v.poses) } : null;
    },
  },
  importFiles: (files) => importer.read(files),
  imports: {
    openAsNew: () => importer.openAsNew(),
    previewMerge: () => importer.previewMerge(),
    confirmMerge: (theirs) => importer.confirmMerge(theirs),
    cancel: () => importer.cancel(),
  },
  projects: {
    open: (id) => projects.open(id),
    newProject: () => projects.newProject(),
    rename: (id, name) => projects.rename(id, name),
    duplicate: (id) => projects.duplicate(id),
    // A deleted project's team mirror goes with it (the team database itself stays on the server).
    remove: async (id) => {
      await team?.forget(id);
      await projects.remove(id);
    },
    unsent: (id) => db.outbox.where('p').equals(id).count(),
  },
  team: {
    connect: (url, user, password) => team?.connect(url, user, password) ?? Promise.resolve(notReady),
    join: (url, user, password, progress) => team?.join(url, user, password, progress) ?? Promise.resolve(notReady),
    signIn: (password) => team?.signIn(password) ?? Promise.resolve(),
    signOut: () => team?.signOut(),
    disconnect: () => team?.disconnect() ?? Promise.resolve(),
    keep: (key, rev) => team?.keep(key, rev) ?? Promise.resolve(notReady),
  },
  exportRelease: () => void exportRelease(),
  tour: { load: (sceneId) => tour.load(sceneId), download: (sceneId, what) => void tour.download(sceneId, what) },
  attachMesh: (sceneId, files) => meshes.attach(sceneId, files),
  removeMesh: (sceneId) => meshes.remove(sceneId),
  openSample,
};

// Saving starts after the stored project has loaded, so nothing can overwrite it first.
void projects.start().then(async (p) => {
  // Scans no project refers to (replaced, or removed in an earlier session) are deleted; no redo can need them now.
  const referenced = new Set((await p.list()).flatMap((row) => row.meshKeys));
  for (const sc of store.getState().document.project?.scenes ?? []) if (sc.mesh) referenced.add(sc.mesh.key);
  void deleteUnreferencedMeshes(db, referenced);
  rememberSession(store);
  meshes.sync();
  team = new TeamSync(store, db, p, { passwords });
  const flushNow = () => void p.flush();
  window.addEventListener('pagehide', flushNow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushNow();
  });
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StudioContext.Provider value={store}>
      <ActionsContext.Provider value={actions}>
        <MeshRegistryContext.Provider value={meshes}>
          <App />
        </MeshRegistryContext.Provider>
      </ActionsContext.Provider>
    </StudioContext.Provider>
  </StrictMode>,
);
