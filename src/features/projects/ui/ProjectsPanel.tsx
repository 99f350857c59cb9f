import { useState } from 'react';
import type { ProjectSummary } from '../../../state/store.ts';
import { useStudio } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';
import { FOLDER_INPUT_ID } from '../../../ui/pickedFiles.ts';
import { JoinTeam, TeamSection } from '../../team/ui/TeamSection.tsx';

export function formatBytes(bytes: number): string {
  if (bytes < 1e3) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(bytes < 1e4 ? 1 : 0)} kB`;
  return `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
}

/**
 * The projects stored in this browser: open one, start a new one, open the sample house, import a
 * release; rename, duplicate, or delete (asked twice). Sizes are the projects' records (scans are
 * stored once and shared). Shift+P or Escape closes it; keys do nothing behind it.
 */
export function ProjectsPanel({ onClose }: { onClose: () => void }) {
  const newProject = useCommand('projects.new');
  const openSample = useCommand('projects.openSample');
  const projects = useStudio((s) => s.workspace.projects);
  const openId = useStudio((s) => s.workspace.projectId);
  const run = (fn: () => Promise<void>) => {
    void fn();
  };
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-labelledby="projects-title" onClick={onClose} data-testid="projects-panel">
      <div className="dialog projects" onClick={(e) => e.stopPropagation()}>
        <h2 id="projects-title">Projects in this browser</h2>
        <div className="project-actions">
          <button
            onClick={() =>
              run(async () => {
                await newProject();
                onClose();
              })
            }
            data-testid="project-new"
          >
            New empty project
          </button>
          <button
            className="secondary"
            onClick={() =>
              run(async () => {
                await openSample();
                onClose();
              })
            }
            data-testid="project-sample"
          >
            Open the sample house
          </button>
          <button
            className="secondary"
            onClick={() => {
              onClose();
              document.getElementById(FOLDER_INPUT_ID)?.click();
            }}
          >
            Import a release…
          </button>
          <JoinTeam onDone={onClose} />
        </div>
        {projects.length === 0 ? (
          <p className="muted" data-testid="projects-empty">
            No projects yet: start a new one, open the sample house, or import a CapNav release.
          </p>
        ) : (
          <table className="project-list" data-testid="project-list">
            <thead>
              <tr>
                <th>Project</th>
                <th>Scenes</th>
                <th>Size</th>
                <th>Changed</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {projects.map((p) => (
                <ProjectRow key={p.id} project={p} isOpen={p.id === openId} onClose={onClose} />
              ))}
            </tbody>
          </table>
        )}
        <TeamSection />
        <p className="muted">
          Each tab can have its own project open; tabs on one project see each other's changes. <kbd>Shift+P</kbd> or <kbd>Escape</kbd> closes this list.
        </p>
        <button onClick={onClose}>Close</button>
      </div>
    </div>
  );
}

function ProjectRow({ project: p, isOpen, onClose }: { project: ProjectSummary; isOpen: boolean; onClose: () => void }) {
  const duplicateProject = useCommand('projects.duplicate');
  const openProject = useCommand('projects.open');
  const removeProject = useCommand('projects.remove');
  const renameProject = useCommand('projects.rename');
  const countUnsent = useCommand('projects.unsent');
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // A synced project's changes still waiting for its team server: said before it is deleted.
  const [unsent, setUnsent] = useState<number | null>(null);
  const commitRename = () => {
    if (renaming !== null && renaming.trim() && renaming.trim() !== p.name) void renameProject(p.id, renaming);
    setRenaming(null);
  };
  return (
    <tr className={isOpen ? 'open' : ''} data-testid="project-row" data-project={p.name}>
      <td>
        {renaming !== null ? (
          <input
            autoFocus
            value={renaming}
            aria-label={`New name for ${p.name}`}
            data-testid="project-rename-input"
            onChange={(e) => setRenaming(e.target.value)}
            onBlur={commitRename}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commitRename();
              if (e.key === 'Escape') {
                e.stopPropagation();
                setRenaming(null);
              }
            }}
          />
        ) : isOpen ? (
          <strong>{p.name}</strong>
        ) : (
          <button
            className="link"
            onClick={() => {
              void openProject(p.id);
              onClose();
            }}
            data-testid="project-open"
          >
            {p.name}
          </button>
        )}
        {isOpen && <span className="muted"> — open here</span>}
        {p.origin === 'sample' && <span className="muted"> (sample)</span>}
        {p.sync && (
          <span className="badge" title={`Synced with ${p.sync.url} as ${p.sync.user}`} data-testid="project-team">
            team · {p.sync.user}
          </span>
        )}
      </td>
      <td>{p.scenes}</td>
      <td>{formatBytes(p.bytes)}</td>
      <td>{new Date(p.updatedAt).toLocaleString()}</td>
      <td className="row-actions">
        {confirming ? (
          <>
            <span>Delete “{p.name}” and its labels from this browser?</span>
            {unsent !== null && unsent > 0 && (
              <strong className="warn" data-testid="project-delete-unsent">
                {' '}
                {unsent} change{unsent === 1 ? '' : 's'} made here {unsent === 1 ? 'has' : 'have'} not reached the team server yet: deleting loses{' '}
                {unsent === 1 ? 'it' : 'them'}.
                {!isOpen && (
                  <>
                    {' '}
                    <button
                      className="small"
                      onClick={() => {
                        setConfirming(false);
                        void openProject(p.id);
                        onClose();
                      }}
                      data-testid="project-send-first"
                    >
                      Open it to send them
                    </button>
                  </>
                )}
              </strong>
            )}
            <button
              className="danger small"
              onClick={() => {
                setConfirming(false);
                void removeProject(p.id);
              }}
              data-testid="project-delete-confirm"
            >
              {unsent ? `Delete, losing ${unsent}` : 'Delete for good'}
            </button>
            <button className="small secondary" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <>
            <button className="small secondary" onClick={() => setRenaming(p.name)} data-testid="project-rename">
              Rename
            </button>
            <button className="small secondary" onClick={() => void duplicateProject(p.id)} data-testid="project-duplicate">
              Duplicate
            </button>
            <button
              className="small secondary"
              data-testid="project-delete"
              onClick={() => {
                setUnsent(null);
                setConfirming(true);
                if (p.sync) void countUnsent(p.id).then(setUnsent, () => setUnsent(null));
              }}
            >
              Delete…
            </button>
          </>
        )}
      </td>
    </tr>
  );
}
