import { useStudio, useStudioStore } from '../state/useStudio.ts';
import { useCommand, useRunCommand } from '../ui/commands.ts';
import { displayShortcut } from '../ui/shortcuts.ts';
import { FILES_INPUT_ID, filesFromInput, FOLDER_INPUT_ID } from '../ui/pickedFiles.ts';
import { teamSummary } from '../features/team/ui/TeamSection.tsx';
import { notify } from '../state/sessionChanges.ts';

/** Title bar: project name (opens the project list), import/export, storage status. */
export function Header({ onHelp }: { onHelp: () => void }) {
  const project = useStudio((s) => s.document.project);
  const storage = useStudio((s) => s.storage);
  const team = useStudio((s) => s.team);
  const runCommand = useRunCommand();
  const importFiles = useCommand('import.read');
  const exportRelease = useCommand('project.export');
  const store = useStudioStore();
  // What the studio says (an export, a refusal) in the views that have no place of their own for it (the label and QA views do).
  const notice = useStudio((s) => (s.session.view === 'label' || s.session.view === 'qa' ? null : s.ephemeral.notice));
  // Until the stored project has loaded, an import could be overwritten by it: wait.
  const opening = storage.status === 'loading';
  return (
    <header className="topbar">
      <h1>Traversa</h1>
      <button
        className="project-name project-name-button"
        data-testid="projects-button"
        onClick={() => runCommand('projects.toggle')}
        title={`All projects in this browser (${displayShortcut('Shift+P')})`}
      >
        <span data-testid="project-name">{project ? project.name : 'No project'}</span> ▾
      </button>
      <div className="actions">
        <label className="button" title={`Import a CapNav release folder (${displayShortcut('Mod+O')})`}>
          Import folder…
          <input
            id={FOLDER_INPUT_ID}
            data-testid="import-folder"
            type="file"
            multiple
            hidden
            disabled={opening}
            ref={(el) => {
              if (el) el.setAttribute('webkitdirectory', '');
            }}
            // An empty folder is picked too (zero files): the import report says so rather than nothing happening.
            onChange={(e) => {
              const list = e.currentTarget.files;
              if (list) void importFiles(filesFromInput(list));
              e.currentTarget.value = '';
            }}
          />
        </label>
        <label className="button secondary" title="Import release files (graphs, QA, traverse, agent_profile.json)">
          Import files…
          <input
            id={FILES_INPUT_ID}
            data-testid="import-files"
            type="file"
            multiple
            accept=".json,application/json"
            hidden
            disabled={opening}
            onChange={(e) => {
              const list = e.currentTarget.files;
              if (list?.length) void importFiles(filesFromInput(list));
              e.currentTarget.value = '';
            }}
          />
        </label>
        <button onClick={() => exportRelease()} disabled={!project} title={`Export as a CapNav release zip (${displayShortcut('Mod+E')})`}>
          Export release
        </button>
        <button
          className="secondary"
          onClick={() => runCommand('project.exportBundle')}
          disabled={!project}
          data-testid="export-bundle"
          title={`Export the Traversa bundle: labels with reasons, provenance and evidence (${displayShortcut('Mod+Shift+E')})`}
        >
          Bundle
        </button>
        <button className="secondary" onClick={onHelp} aria-label="Keyboard shortcuts">
          ?
        </button>
      </div>
      {team.state !== 'off' && (
        <button
          className={`team-badge ${team.state}`}
          data-testid="team-status"
          data-state={team.state}
          data-waiting={team.waiting}
          title={team.message ?? `${team.url} as ${team.user}`}
          onClick={() => runCommand('projects.toggle')}
        >
          {teamSummary(team)}
        </button>
      )}
      {notice && (
        <span className="header-notice" role="status" data-testid="studio-notice" title={notice}>
          <span className="text">{notice}</span>
          <button className="small secondary" aria-label="Dismiss" onClick={() => notify(store, null)}>
            ×
          </button>
        </span>
      )}
      <span className={`storage ${storage.status}`} data-testid="storage-status" role={storage.status === 'error' ? 'alert' : undefined}>
        {storage.status === 'error'
          ? storage.message
          : storage.status === 'saving'
            ? 'Saving…'
            : storage.status === 'saved'
              ? 'Saved in this browser'
              : storage.status === 'loading'
                ? (storage.message ?? 'Opening…')
                : ''}
      </span>
    </header>
  );
}
