import { memo, startTransition, useEffect, useState } from 'react';
import type { Scene } from '../../../core/project.ts';
import { createScene, deleteScene } from '../../../state/commands.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useSceneErrorCount } from './sceneErrors.ts';
import { openScene } from '../../../state/sessionChanges.ts';

/** Rows of the scene list drawn in one go. */
const ROWS_AT_ONCE = 150;

/** The project's scenes (J / K to move), with a count of each scene's errors. */
export function SceneList() {
  const store = useStudioStore();
  const scenes = useStudio((s) => s.document.project?.scenes);
  const selected = useStudio((s) => s.session.sceneId);
  const view = useStudio((s) => s.session.view);
  const opening = useStudio((s) => s.storage.status === 'loading');
  // A 1,000-scene project shows its first rows at once and the rest a slice per frame, so drawing
  // the list never holds the page (each row checks its scene).
  const total = scenes?.length ?? 0;
  const [shown, setShown] = useState(ROWS_AT_ONCE);
  useEffect(() => {
    if (shown >= total) return;
    const t = setTimeout(() => startTransition(() => setShown((n) => n + ROWS_AT_ONCE)), 0);
    return () => clearTimeout(t);
  }, [shown, total]);
  return (
    <nav className="scene-list" aria-label="Scenes">
      <h2>
        Scenes <span className="muted">({scenes?.length ?? 0})</span>
      </h2>
      <button className="small secondary new-scene" disabled={opening} onClick={() => createScene(store)} data-testid="new-scene">
        + New scene
      </button>
      <ul>
        {(scenes ?? []).slice(0, shown).map((s) => (
          <SceneRow key={s.id} scene={s} active={view === 'scene' && selected === s.id} />
        ))}
      </ul>
    </nav>
  );
}

/**
 * One scene of the list. Memoised on the scene object: an edit replaces only the scenes it
 * changes, so a label re-renders one row, not a thousand.
 */
const SceneRow = memo(function SceneRow({ scene, active }: { scene: Scene; active: boolean }) {
  const store = useStudioStore();
  const [confirm, setConfirm] = useState(false);
  const errors = useSceneErrorCount(scene);
  const labels = Object.values(scene.labels).reduce((n, bySegment) => n + Object.keys(bySegment).length, 0);
  return (
    <li>
      <button className={active ? 'active' : ''} data-scene={scene.id} onClick={() => openScene(store, scene.id)}>
        <span>{scene.id}</span>
        <span className="muted">{scene.questions.length} q</span>
        {errors ? (
          <span className="badge bad" title="errors in this scene">
            {errors}
          </span>
        ) : null}
      </button>
      {active && !confirm && (
        <button className="small secondary remove-scene" onClick={() => setConfirm(true)} data-testid="scene-remove">
          Remove scene…
        </button>
      )}
      {confirm && (
        <div className="scene-remove-confirm" role="alertdialog" aria-label={`Remove ${scene.id}`} data-testid="scene-remove-confirm">
          <span>
            Remove {scene.id} with its {scene.graph.nodes.length} nodes, {scene.questions.length} questions and {labels} labels? Undo ({'Ctrl+Z'}) brings it
            back.
          </span>
          <button
            className="small danger"
            onClick={() => {
              setConfirm(false);
              deleteScene(store, scene.id);
            }}
            data-testid="scene-remove-yes"
          >
            Remove
          </button>
          <button className="small secondary" onClick={() => setConfirm(false)}>
            Keep it
          </button>
        </div>
      )}
    </li>
  );
});
