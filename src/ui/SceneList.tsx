import { createScene } from '../state/commands.ts';
import { useStudio, useStudioStore } from '../state/useStudio.ts';
import { sceneErrorCount } from './sceneErrors.ts';

/** The project's scenes (J / K to move), with a count of each scene's errors. */
export function SceneList() {
  const store = useStudioStore();
  const scenes = useStudio((s) => s.document.project?.scenes);
  const selected = useStudio((s) => s.session.sceneId);
  const view = useStudio((s) => s.session.view);
  const opening = useStudio((s) => s.storage.status === 'loading');
  return (
    <nav className="scene-list" aria-label="Scenes">
      <h2>Scenes <span className="muted">({scenes?.length ?? 0})</span></h2>
      <button className="small secondary new-scene" disabled={opening} onClick={() => createScene(store)} data-testid="new-scene">+ New scene</button>
      <ul>
        {(scenes ?? []).map((s) => { const errors = sceneErrorCount(s); return (
          <li key={s.id}>
            <button className={view === 'scene' && selected === s.id ? 'active' : ''} data-scene={s.id}
              onClick={() => store.setState((st) => ({ session: { ...st.session, sceneId: s.id, view: 'scene', questionIndex: null } }))}>
              <span>{s.id}</span>
              <span className="muted">{s.questions.length} q</span>
              {errors ? <span className="badge bad" title="errors in this scene">{errors}</span> : null}
            </button>
          </li>
        ); })}
      </ul>
    </nav>
  );
}
