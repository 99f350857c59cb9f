// Composition root: wires the store, persistence, IO actions, commands and the React tree.
import './features.ts';
import { setOfMarkPictures } from '../features/qa/app/setOfMark.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { deleteUnreferencedMeshes } from '../persistence/meshStore.ts';
import { TraversaDb } from '../persistence/db.ts';
import { createStudioStore } from '../state/store.ts';
import { StudioContext } from '../state/useStudio.ts';
import { CommandsContext, type StudioCommands } from '../ui/commands.ts';
import { App } from '../shell/App.tsx';
import { FOLDER_INPUT_ID } from '../ui/pickedFiles.ts';
import { download, exportedNotice, releaseZipWithVideos } from '../services/exportRelease.ts';
import { writeBundle } from '../formats/bundle.ts';
import { strToU8 } from 'fflate';
import { Importer } from '../features/projects/app/importRelease.ts';
import { Projects } from '../features/projects/app/projects.ts';
import { TeamSync } from '../persistence/teamSync.ts';
import { ScoringRunner } from '../features/scoring/app/scoring.ts';
import { QaAnswersRunner } from '../features/scoring/app/qaScoring.ts';
import { MeshManager } from '../services/meshManager.ts';
import { buildArgCommands, buildCommands, runById } from './commandRegistry.ts';
import { driveKeys, followAutoApprove, followSceneInQueue } from '../features/labelling/app/labelling.ts';
import { DriveController } from '../features/drive/app/drive.ts';
import { rememberSession } from '../services/sessionMemory.ts';
import { SuggestionRunner } from '../features/suggestions/app/suggestions.ts';
import { saveSceneVideo } from '../persistence/videos.ts';
import { MeshRegistryContext } from '../viewport/meshRuntime.ts';
import { TaskGenerator } from '../features/tasks/app/taskGeneration.ts';
import { TourRunner } from '../features/tour/app/tour.ts';
import { TrainingTasks } from '../features/training/app/trainingTasks.ts';
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
  () => projects.started(),
);
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

const drive = new DriveController(store, meshes, tell, (loaded, profile, a, b) => suggestions.drive(loaded, profile, a, b));
driveKeys(store, drive);
const commands = buildCommands({
  store,
  flush: () => flush(),
  tell,
  drive,
  project: {
    importFolder: () => document.getElementById(FOLDER_INPUT_ID)?.click(),
    openSample: () => void projects.openSample(),
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

const withArgs = buildArgCommands({
  store,
  flush: () => flush(),
  tell,
  projects,
  importer,
  team: () => team,
  unsent: (id) => db.outbox.where('p').equals(id).count(),
  meshes,
  suggestions,
  scorer,
  qaAnswers,
  tasks,
  tour,
  training: new TrainingTasks(store, tell),
  setOfMark: (project) => setOfMarkPictures(project, meshes.get),
});
const studioCommands: StudioCommands = { list: commands, run: (id) => void runById(store, commands, id), withArgs };

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
      <CommandsContext.Provider value={studioCommands}>
        <MeshRegistryContext.Provider value={meshes}>
          <App />
        </MeshRegistryContext.Provider>
      </CommandsContext.Provider>
    </StudioContext.Provider>
  </StrictMode>,
);
