import { displayShortcut } from './shortcuts.ts';
import { useActions } from './actions.ts';

/** Every command with its shortcut (press ? to toggle). */
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const { commands } = useActions();
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" onClick={onClose}>
      <div className="dialog" onClick={(e) => e.stopPropagation()}>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <table className="table">
          <tbody>
            {commands.filter((c) => c.shortcut).map((c) => (
              <tr key={c.id}><td><kbd>{displayShortcut(c.shortcut!)}</kbd></td><td>{c.label}</td></tr>
            ))}
            <tr><td><kbd>?</kbd></td><td>Show or hide this list</td></tr>
          </tbody>
        </table>
        <button onClick={onClose}>Close</button>
      </div>
    </div>
  );
}
