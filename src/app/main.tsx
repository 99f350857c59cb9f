// Composition root: wires the store, persistence, IO actions, commands and the React tree.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startPersistence } from '../persistence/autosave.ts';
import { TraversaDb } from '../persistence/db.ts';
import { stateCommands, type Command } from '../state/commands.ts';
import { createStudioStore } from '../state/store.ts';
import { StudioContext } from '../state/useStudio.ts';
import { ActionsContext, type StudioActions } from '../ui/actions.ts';
import { App } from '../ui/App.tsx';
import { FOLDER_INPUT_ID } from '../ui/Header.tsx';
import { download, releaseZip } from './exportRelease.ts';
import { importRelease, restorePrevious } from './importRelease.ts';
import '../ui/styles.css';

const store = createStudioStore();
const db = new TraversaDb();
let flush: () => Promise<void> = async () => {};

const exportRelease = () => {
  const project = store.getState().document.project;
  if (!project) return;
  const zip = releaseZip(project);
  download(zip.name, zip.bytes);
};

const appCommands: Command[] = [
  { id: 'project.import', label: 'Import a CapNav release folder', shortcut: 'Mod+O', undoable: false, run: () => document.getElementById(FOLDER_INPUT_ID)?.click() },
  { id: 'project.export', label: 'Export the project as a CapNav release zip', shortcut: 'Mod+E', undoable: false, enabled: (s) => s.document.project !== null, run: exportRelease },
];

const actions: StudioActions = {
  commands: [...appCommands, ...stateCommands],
  importFiles: (files) => importRelease(store, db, files, () => flush()),
  exportRelease,
  restorePrevious: () => restorePrevious(store, db, () => flush()),
};

// Saving starts after the stored project has loaded, so nothing can overwrite it first.
void startPersistence(store, db).then((p) => {
  flush = p.flush;
  const flushNow = () => void p.flush();
  window.addEventListener('pagehide', flushNow);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') flushNow(); });
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StudioContext.Provider value={store}>
      <ActionsContext.Provider value={actions}>
        <App />
      </ActionsContext.Provider>
    </StudioContext.Provider>
  </StrictMode>,
);
