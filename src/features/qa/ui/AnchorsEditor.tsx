import type { QaItem } from '../../../core/vqa/item.ts';
import { applyEdit, type Edit } from '../../../state/edits.ts';
import { ITEM_EDITS } from '../state/qaItemEdits.ts';
import { showViewpoint } from '../state/qaItems.ts';
import { Field } from './Field.tsx';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { viewportHandle } from '../../../viewport/viewportHandle.ts';
import { markFloorWarnings } from '../state/markFloors.ts';
import { viewSlice } from '../../../state/slice.ts';
import { toggleMarkTool } from '../../../state/sessionChanges.ts';

/** Where in the scene the item is anchored: saved viewpoints, numbered marks, graph nodes and edges, the agent. */
export function AnchorsEditor({ item }: { item: QaItem }) {
  const store = useStudioStore();
  const scene = useStudio((s) => s.document.project?.scenes.find((x) => x.id === item.sceneId));
  const profiles = useStudio((s) => s.document.project?.profiles);
  const tool = useStudio((s) => s.session.tool);
  // As text, so the view re-renders only when a warning changes.
  const warned = useStudio((s) => JSON.stringify([...markFloorWarnings(s, item)]));
  const floorWarnings = new Map(JSON.parse(warned) as [string, string][]);
  const edit = <A,>(e: Edit<A & { itemId: string }>, args: A) => applyEdit(store, e, { ...args, itemId: item.id });
  const anchors = item.anchors;
  const names = new Map(scene?.graph.nodes.map((n) => [n.id, n.name || n.id]));

  const saveViewpoint = () => {
    const shot = viewportHandle.capture?.();
    if (!shot) return;
    const n = anchors.viewpoints.length + 1;
    // With the view's size and slice, so the Set-of-Mark image of the bundle shows what was seen.
    const slice = viewSlice(store.getState());
    edit(ITEM_EDITS.saveViewpoint, {
      viewpoint: {
        id: `vp_${Date.now().toString(36)}`,
        name: `View ${n}`,
        camera: shot.pose,
        size: shot.size,
        ...(slice.on ? { slice: { height: slice.height, below: slice.below } } : {}),
        ...(shot.thumbnail ? { thumbnail: shot.thumbnail } : {}),
      },
    });
  };
  const restore = (camera: QaItem['anchors']['viewpoints'][number]['camera']) => showViewpoint(store, camera);

  return (
    <div className="anchors" data-testid="anchors">
      <h4>Viewpoints</h4>
      <div className="viewpoints">
        {anchors.viewpoints.map((v) => (
          <figure key={v.id} className="viewpoint" data-viewpoint={v.id}>
            {v.thumbnail ? (
              <img src={v.thumbnail} alt={`Viewpoint ${v.name}`} onClick={() => restore(v.camera)} />
            ) : (
              <button className="small secondary" onClick={() => restore(v.camera)}>
                show
              </button>
            )}
            <figcaption>
              {v.name}{' '}
              <button className="small secondary" aria-label={`Remove ${v.name}`} onClick={() => edit(ITEM_EDITS.removeViewpoint, { id: v.id })}>
                ×
              </button>
            </figcaption>
          </figure>
        ))}
        <button className="small" data-testid="save-viewpoint" onClick={saveViewpoint}>
          Save this view
        </button>
      </div>
      <h4>Marks</h4>
      <div className="marks">
        {anchors.marks.map((m) => (
          <span key={m.id} className={`chip${floorWarnings.has(m.id) ? ' warn' : ''}`} data-mark-item={m.number}>
            {m.number}
            {floorWarnings.has(m.id) && ' ⚠'}
            <Field
              label={`Mark ${m.number} label`}
              testId={`mark-label-${m.number}`}
              value={m.label}
              placeholder="what it marks"
              onCommit={(v) => edit(ITEM_EDITS.nameMark, { id: m.id, label: v })}
            />
            <button className="small secondary" aria-label={`Remove mark ${m.number}`} onClick={() => edit(ITEM_EDITS.removeMark, { id: m.id })}>
              ×
            </button>
          </span>
        ))}
        <button
          className={`small${tool === 'mark' ? '' : ' secondary'}`}
          aria-pressed={tool === 'mark'}
          data-testid="mark-tool"
          onClick={() => toggleMarkTool(store)}
        >
          {tool === 'mark' ? 'Click the scene to place marks (again to stop)' : 'Place marks'}
        </button>
      </div>
      {anchors.marks
        .filter((m) => floorWarnings.has(m.id))
        .map((m) => (
          <p key={m.id} className="warn" data-testid={`mark-floor-${m.number}`}>
            ⚠ Mark {m.number} is {floorWarnings.get(m.id)}: it may sit on the slab above the room it was meant for (an unsliced view draws a lower floor’s names
            over it). Remove it and place it again with <em>Item’s floor</em> on.
          </p>
        ))}
      <h4>Nodes and edges</h4>
      <div className="refs">
        {anchors.nodes.map((id) => (
          <span key={id} className="chip" data-node-ref={id}>
            {names.get(id) ?? `${id} (missing)`}
            <button className="small secondary" aria-label={`Remove ${id}`} onClick={() => edit(ITEM_EDITS.unreferenceNode, { id })}>
              ×
            </button>
          </span>
        ))}
        <select
          aria-label="Add a node reference"
          value=""
          onChange={(e) => {
            const id = e.target.value;
            if (id) edit(ITEM_EDITS.referenceNode, { id });
          }}
        >
          <option value="">+ node…</option>
          {scene?.graph.nodes.map((n) => (
            <option key={n.id} value={n.id}>
              {n.name || n.id}
            </option>
          ))}
        </select>
        <label>
          Agent{' '}
          <select aria-label="Agent" value={anchors.agent ?? ''} onChange={(e) => edit(ITEM_EDITS.agent, { agent: e.target.value || undefined })}>
            <option value="">—</option>
            {profiles?.map((p) => (
              <option key={p.name}>{p.name}</option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}
