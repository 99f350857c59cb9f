import { useStudio } from '../../../state/useStudio.ts';

const m = (x: number) => `${x.toFixed(3)} m`;

/** What the measuring tool found, and what to click next. */
export function MeasureReadout() {
  const tool = useStudio((s) => s.session.tool);
  const mode = useStudio((s) => s.session.measureMode);
  const measure = useStudio((s) => s.ephemeral.measure);
  const connectFrom = useStudio((s) => s.ephemeral.connectFrom);
  let text: string;
  if (tool === 'measure') {
    if (mode === 'width') {
      const w = measure?.width;
      text = w
        ? `Clear width ${m(w.width)} (narrowest horizontal span through the point, ${w.height.toFixed(1)} m above the floor, between surfaces ${w.facingDeg.toFixed(0)}° from facing each other)${w.warning ? ` — ⚠ not a passage's width: ${w.warning}.` : ''}`
        : measure
          ? 'No walls within 3 m on both sides of that point.'
          : 'Click inside a doorway or corridor to measure its clear width. W: distance mode.';
    } else
      text = measure?.distance
        ? `Distance ${m(measure.distance.total)} · horizontal ${m(measure.distance.horizontal)} · height difference ${m(measure.distance.vertical)} (a step or sill: click its top, then the floor)`
        : measure
          ? 'Click the second point.'
          : 'Click two points to measure. W: clear-width mode.';
  } else if (tool === 'place') text = 'Click the floor to place a node (it snaps to the surface under the cursor).';
  else if (tool === 'connect') text = connectFrom ? 'Click the next node to connect it; Escape to stop.' : 'Click a node to start connecting.';
  else text = 'Drag a node to move it along the floor. Drag elsewhere to orbit, right-drag to pan, wheel to zoom.';
  return (
    <div className="measure-readout" data-testid="measure-readout" role="status">
      {text}
    </div>
  );
}
