import { findCommand, runCommand } from '../state/commands.ts';
import { useStudio, useStudioShallow, useStudioStore } from '../state/useStudio.ts';
import { sceneFloors, SLICE_ABOVE_FLOOR } from '../state/workspaceCommands.ts';
import { useActions } from './actions.ts';
import { displayShortcut } from './shortcuts.ts';

/** Tools, views and the slice, each a command with its shortcut shown. */
export function Toolbar({ tools = true }: { tools?: boolean | 'measure' }) {
  const store = useStudioStore();
  const { commands } = useActions();
  const session = useStudio((s) => s.session);
  const floors = useStudioShallow(sceneFloors);
  const button = (id: string, text: string, active: boolean) => {
    const c = findCommand(commands, id);
    return (
      <button key={id} className={`tool${active ? ' active' : ''}`} aria-pressed={active} data-command={id}
        title={`${c.label} (${displayShortcut(c.shortcut ?? '')})`} onClick={() => runCommand(store, c)}>
        {text} <kbd>{displayShortcut(c.shortcut ?? '')}</kbd>
      </button>
    );
  };
  const setSlice = (patch: Partial<typeof session.slice>) => store.setState((s) => ({ session: { ...s.session, slice: { ...s.session.slice, ...patch } } }));
  return (
    <div className="toolbar" role="toolbar" aria-label="Workspace tools">
      {tools && <div className="group">
        {button('tool.select', 'Select', session.tool === 'select')}
        {tools === true && button('tool.place', 'Place node', session.tool === 'place')}
        {tools === true && button('tool.connect', 'Connect', session.tool === 'connect')}
        {button('tool.measure', 'Measure', session.tool === 'measure')}
        {session.tool === 'measure' && button('measure.toggleMode', session.measureMode === 'distance' ? 'Distance / step' : 'Clear width', false)}
      </div>}
      <div className="group">
        {button('camera.orbit', 'Orbit', session.camera === 'orbit')}
        {button('camera.top', 'Top', session.camera === 'top')}
        {button('camera.first', 'Walk', session.camera === 'first')}
      </div>
      <div className="group slice">
        {button('slice.toggle', 'Slice', session.slice.on)}
        {floors.map((f, i) => (
          <button key={i} className={`tool small${session.slice.on && Math.abs(session.slice.height - f - SLICE_ABOVE_FLOOR) < 0.01 ? ' active' : ''}`}
            data-floor={i} title={`Show floor ${i + 1} (at ${f.toFixed(2)} m); PageUp / PageDown step floors`}
            onClick={() => setSlice({ on: true, height: f + SLICE_ABOVE_FLOOR })}>
            Floor {i + 1}
          </button>
        ))}
        {session.slice.on && (
          <label className="slice-height">
            <input type="range" min={(floors[0] ?? 0) - 1} max={(floors[floors.length - 1] ?? 0) + 4} step={0.05} value={session.slice.height}
              onChange={(e) => setSlice({ height: Number(e.target.value) })} aria-label="Slice height" />
            <span data-testid="slice-height">{session.slice.height.toFixed(2)} m</span>
          </label>
        )}
      </div>
    </div>
  );
}
