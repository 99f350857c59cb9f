import type { Command } from '../state/commands.ts';
import type { View } from '../state/store.ts';
import { useStudio } from '../state/useStudio.ts';
import { DRIVE_KEY_HELP, WALK_KEY_HELP, type MovementKey } from '../viewport/movementKeys.ts';
import { displayShortcut } from './shortcuts.ts';
import { useCommandList } from './commands.ts';

const SECTIONS: { view: View; title: string; moves: MovementKey[] }[] = [
  { view: 'scene', title: 'Scene (editing the graph)', moves: WALK_KEY_HELP },
  { view: 'label', title: 'Label (the queue)', moves: [...DRIVE_KEY_HELP, ...WALK_KEY_HELP] },
  { view: 'score', title: 'Score', moves: [] },
  { view: 'qa', title: 'QA (writing and reviewing items)', moves: WALK_KEY_HELP },
];

/**
 * Every shortcut, grouped by the view it works in (from each command's `views`), with the keys that
 * move things (driving the placed agent, walking). The view you are in comes first. While the list
 * is open, keys do nothing behind it; `?` or Escape closes it.
 */
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const commands = useCommandList();
  const view = useStudio((s) => s.session.view);
  const keyed = commands.filter((c) => c.shortcut);
  const sections = [...SECTIONS.filter((s) => s.view === view), ...SECTIONS.filter((s) => s.view !== view)];
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" onClick={onClose} data-testid="shortcuts-help">
      <div className="dialog shortcuts" onClick={(e) => e.stopPropagation()}>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <p className="muted">
          Keys do nothing behind this list. <kbd>?</kbd> or <kbd>Escape</kbd> closes it.
        </p>
        <Section title="Everywhere" commands={keyed.filter((c) => !c.views)} moves={[]} testId="shortcuts-global" />
        {sections.map((s) => (
          <Section
            key={s.view}
            title={`${s.title}${s.view === view ? ' — this view' : ''}`}
            testId={`shortcuts-${s.view}`}
            commands={keyed.filter((c) => c.views?.includes(s.view))}
            moves={s.moves}
          />
        ))}
        <button onClick={onClose}>Close</button>
      </div>
    </div>
  );
}

function Section({ title, commands, moves, testId }: { title: string; commands: Command[]; moves: MovementKey[]; testId: string }) {
  return (
    <section data-testid={testId}>
      <h3>{title}</h3>
      <table className="table">
        <tbody>
          {commands.map((c) => (
            <tr key={c.id} data-command={c.id}>
              <td>
                <kbd>{displayShortcut(c.shortcut!)}</kbd>
              </td>
              <td>{c.label}</td>
            </tr>
          ))}
          {moves.map((m) => (
            <tr key={m.key + m.shows} data-movement>
              <td>
                <kbd>{m.key}</kbd>
              </td>
              <td>{m.shows}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
