import { findCommand, runCommand } from '../state/commands.ts';
import type { CommandId } from '../state/commandIds.ts';
import { useStudio, useStudioShallow, useStudioStore } from '../state/useStudio.ts';
import { sceneFloors, setSlice, SLICE_ABOVE_FLOOR, viewSlice } from '../state/slice.ts';
import { useCommandList } from './commands.ts';
import { displayShortcut } from './shortcuts.ts';

/** Tools, views and the slice, each a command with its shortcut shown. */
export function Toolbar({ tools = true }: { tools?: boolean | 'measure' }) {
  const store = useStudioStore();
  const commands = useCommandList();
  const session = useStudio((s) => s.session);
  const floors = useStudioShallow(sceneFloors);
  const slice = useStudioShallow(viewSlice);
  const button = (id: CommandId, text: string, active: boolean) => {
    const c = findCommand(commands, id);
    return (
      <button
        key={id}
        className={`tool${active ? ' active' : ''}`}
        aria-pressed={active}
        data-command={id}
        title={`${c.label} (${displayShortcut(c.shortcut ?? '')})`}
        onClick={() => runCommand(store, c)}
      >
        {text} <kbd>{displayShortcut(c.shortcut ?? '')}</kbd>
      </button>
    );
  };
  const slicedBy = (patch: Partial<typeof session.slice>) => setSlice(store, { on: slice.on, height: slice.height, ...patch });
  return (
    <div className="toolbar" role="toolbar" aria-label="Workspace tools">
      {tools && (
        <div className="group">
          {button('tool.select', 'Select', session.tool === 'select')}
          {tools === true && button('tool.place', 'Place node', session.tool === 'place')}
          {tools === true && button('tool.connect', 'Connect', session.tool === 'connect')}
          {button('tool.measure', 'Measure', session.tool === 'measure')}
          {session.tool === 'measure' && button('measure.toggleMode', session.measureMode === 'distance' ? 'Distance / step' : 'Clear width', false)}
        </div>
      )}
      <div className="group">
        {button('camera.orbit', 'Orbit', session.camera === 'orbit')}
        {button('camera.top', 'Top', session.camera === 'top')}
        {button('camera.first', 'Walk', session.camera === 'first')}
      </div>
      <div className="group slice">
        {button('slice.toggle', 'Slice', slice.on)}
        {(session.view === 'label' || session.view === 'qa') && (
          <button
            className={`tool small${session.sliceFollowsItem ? ' active' : ''}`}
            aria-pressed={session.sliceFollowsItem}
            data-testid="slice-follows"
            title={
              session.view === 'label'
                ? 'Slice at the current segment’s floor (lower floors hidden); moving the queue does it again'
                : 'Slice at the floor of the nodes the open item references (lower floors hidden), so marks land on the floor it is about'
            }
            onClick={() => runCommand(store, findCommand(commands, 'slice.followSegment'))}
          >
            {session.view === 'label' ? 'Segment’s floor' : 'Item’s floor'}
          </button>
        )}
        {floors.map((f, i) => (
          <button
            key={i}
            className={`tool small${slice.on && Math.abs(slice.height - f - SLICE_ABOVE_FLOOR) < 0.01 ? ' active' : ''}`}
            data-floor={i}
            title={`Show floor ${i + 1} (at ${f.toFixed(2)} m); PageUp / PageDown step floors`}
            onClick={() => slicedBy({ on: true, height: f + SLICE_ABOVE_FLOOR })}
          >
            Floor {i + 1}
          </button>
        ))}
        {slice.on && (
          <label className="slice-height">
            <input
              type="range"
              min={(floors[0] ?? 0) - 1}
              max={(floors[floors.length - 1] ?? 0) + 4}
              step={0.05}
              value={slice.height}
              onChange={(e) => slicedBy({ height: Number(e.target.value) })}
              aria-label="Slice height"
            />
            <span data-testid="slice-height">{slice.height.toFixed(2)} m</span>
            {slice.below !== null && (
              <span className="muted" data-testid="slice-below">
                from {slice.below.toFixed(2)} m
              </span>
            )}
          </label>
        )}
      </div>
    </div>
  );
}
