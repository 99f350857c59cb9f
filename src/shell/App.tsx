import { useEffect, useState, type DragEvent } from 'react';
import { findCommand, runCommand } from '../state/commands.ts';
import type { CommandId } from '../state/commandIds.ts';
import { useStudio, useStudioStore } from '../state/useStudio.ts';
import { useCommand, useCommandList } from '../ui/commands.ts';
import { Header } from './Header.tsx';
import { ImportReport } from '../features/projects/ui/ImportReport.tsx';
import { filesFromDrop } from '../ui/pickedFiles.ts';
import { ProblemsView } from '../ui/ProblemsView.tsx';
import { ProjectsPanel } from '../features/projects/ui/ProjectsPanel.tsx';
import { SceneList } from '../features/scene/ui/SceneList.tsx';
import { SceneView } from '../features/scene/ui/SceneView.tsx';
import { LabelView } from '../features/labelling/ui/LabelView.tsx';
import { ScoreView } from '../features/scoring/ui/ScoreView.tsx';
import { QaView } from '../features/qa/ui/QaView.tsx';
import { commandForKey, leaveField } from '../ui/shortcuts.ts';
import { ShortcutsHelp } from '../ui/ShortcutsHelp.tsx';
import { StatsView } from './StatsView.tsx';
import { TrainingView } from '../features/training/ui/TrainingView.tsx';

export function App() {
  const store = useStudioStore();
  const commands = useCommandList();
  const importFiles = useCommand('import.read');
  // Whether a project is open, not the project: the views below subscribe to what they show, so an edit does not re-render the whole app.
  const hasProject = useStudio((s) => s.document.project !== null);
  const view = useStudio((s) => s.session.view);
  const opening = useStudio((s) => s.storage.status === 'loading');
  const help = useStudio((s) => s.ephemeral.helpOpen);
  const projectsOpen = useStudio((s) => s.ephemeral.projectsOpen);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    // Every key goes through the command registry: `?` and Escape open and close the shortcuts
    // list, and while it is open no other command runs (commandForKey).
    const onKey = (e: KeyboardEvent) => {
      const c = commandForKey(commands, e, store.getState());
      if (!c) return;
      leaveField(e);
      if (runCommand(store, c)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [commands, store]);
  const run = (id: CommandId) => runCommand(store, findCommand(commands, id));

  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    // A dropped empty folder yields no files: still an import, whose report says the folder had none.
    const droppedFiles = [...e.dataTransfer.items].some((item) => item.kind === 'file');
    const files = await filesFromDrop(e.dataTransfer);
    if (files.length || droppedFiles) await importFiles(files);
  };

  return (
    <div
      className="app"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={(e) => void onDrop(e)}
    >
      <Header onHelp={() => run('help.toggle')} />
      <div className="layout">
        <aside className="sidebar">
          <nav className="views" aria-label="Views">
            {(['overview', 'scene', 'label', 'score', 'qa', 'problems', 'training'] as const).map((v, i) => (
              <button
                key={v}
                className={view === v ? 'active' : ''}
                aria-current={view === v ? 'page' : undefined}
                disabled={!hasProject}
                data-view={v}
                onClick={() => run(`view.${v}`)}
              >
                {['Statistics', 'Scene', 'Label', 'Score', 'QA', 'Problems', 'Training'][i]} <kbd>{i + 1}</kbd>
              </button>
            ))}
          </nav>
          <SceneList />
        </aside>
        <main className="main">
          <ImportReport />
          {opening ? (
            <Opening />
          ) : !hasProject ? (
            <EmptyState />
          ) : view === 'overview' ? (
            <StatsView />
          ) : view === 'scene' ? (
            <SceneView />
          ) : view === 'label' ? (
            <LabelView />
          ) : view === 'score' ? (
            <ScoreView />
          ) : view === 'qa' ? (
            <QaView />
          ) : view === 'training' ? (
            <TrainingView />
          ) : (
            <ProblemsView />
          )}
        </main>
      </div>
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop a CapNav release folder or its files to import
        </div>
      )}
      {help && <ShortcutsHelp onClose={() => run('help.close')} />}
      {projectsOpen && !help && <ProjectsPanel onClose={() => run('projects.close')} />}
    </div>
  );
}

function Opening() {
  const message = useStudio((s) => s.storage.message);
  return (
    <p className="empty" role="status" data-testid="opening">
      {message ?? 'Opening your stored project…'}
    </p>
  );
}

function EmptyState() {
  const openSample = useCommand('projects.openSample');
  const newProject = useCommand('projects.new');
  return (
    <section className="empty-state" data-testid="empty-state">
      <h2>No project open</h2>
      <p>
        <button className="small" onClick={() => void newProject()}>
          Start a new project
        </button>
        , or open one from the <strong>project list</strong> (the project name at the top, or <kbd>Shift+P</kbd>).
      </p>
      <p>
        Import a CapNav release: choose <strong>Import folder…</strong> and pick the release folder (the one holding <code>graphs/</code>, <code>qa/</code>,{' '}
        <code>traverse/</code> and <code>agent_profile.json</code>), or drag the folder or its files onto this window.
      </p>
      <p>
        Or{' '}
        <button className="small" onClick={() => void openSample()}>
          open the sample house
        </button>
        : a generated two-storey house with its scan, graph, questions and ground truth.
      </p>
      <p className="muted">
        Everything stays in this browser and survives reloads; each project is stored on its own. Press <kbd>?</kbd> for keyboard shortcuts.
      </p>
    </section>
  );
}
