import { directionConflicts } from '../../../core/labels.ts';
import { selectedScene } from '../../../state/commands.ts';
import { resolveDirectionConflict } from '../../labelling/state/labelCommands.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';

/** Segments whose two directions disagree, each resolvable by choosing one judgement for both. */
export function ConflictsPanel() {
  const store = useStudioStore();
  const scene = useStudio(selectedScene);
  if (!scene) return null;
  const conflicts = directionConflicts(scene.labels);
  if (!conflicts.length) return null;
  const names = new Map(scene.graph.nodes.map((n) => [n.id, n.name || n.id]));
  return (
    <details className="conflicts" open data-testid="conflicts">
      <summary>
        {conflicts.length} direction conflict{conflicts.length === 1 ? '' : 's'}
      </summary>
      <ul>
        {conflicts.map((c) => (
          <li key={`${c.agent}:${c.a}|${c.b}`}>
            <strong>{c.agent}</strong> {names.get(c.a)} ⇄ {names.get(c.b)}:{' '}
            <button className="small secondary" onClick={() => resolveDirectionConflict(store, scene.id, c.agent, c.a, c.b, c.forward)}>
              both {c.forward.traversable ? 'traversable' : 'not'} ({c.forward.note || 'no note'})
            </button>{' '}
            <button className="small secondary" onClick={() => resolveDirectionConflict(store, scene.id, c.agent, c.a, c.b, c.backward)}>
              both {c.backward.traversable ? 'traversable' : 'not'} ({c.backward.note || 'no note'})
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
