import { useEffect, useRef, useState } from 'react';
import { edgeLabelState } from '../../../core/labels.ts';
import type { NavNode } from '../../../core/graph.ts';
import { selectedScene } from '../../../state/commands.ts';
import { connectNodes, describeNode, renameNode, setNodeFloor } from '../state/graphCommands.ts';
import { sceneFloors } from '../../../state/slice.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { hoverNode, select } from '../../../state/sessionChanges.ts';

/** The graph as lists, linked both ways with the viewport, and an editor for the selected node. */
export function GraphPanel() {
  const store = useStudioStore();
  const scene = useStudio(selectedScene);
  const selection = useStudio((s) => s.session.selection);
  const agent = useStudio((s) => s.session.agent);
  const hover = useStudio((s) => s.ephemeral.hoverNode);
  if (!scene) return null;
  const names = new Map(scene.graph.nodes.map((n) => [n.id, n.name || n.id]));
  const choose = (kind: 'node' | 'edge', id: string) => select(store, { kind, id });
  const node = selection?.kind === 'node' ? scene.graph.nodes.find((n) => n.id === selection.id) : undefined;

  return (
    <div className="graph-panel-lists">
      {node ? (
        <NodeEditor key={node.id} node={node} />
      ) : (
        <p className="hint">
          Click a node to edit it. <kbd>N</kbd> places a node on the floor, <kbd>C</kbd> connects nodes, <kbd>Delete</kbd> removes the selection.
        </p>
      )}
      <h3>
        Nodes <span className="muted">({scene.graph.nodes.length})</span>
      </h3>
      <ul className="list" data-testid="node-list">
        {scene.graph.nodes.map((n) => (
          <li key={n.id}>
            <button
              data-node-item={n.id}
              className={`${selection?.kind === 'node' && selection.id === n.id ? 'active' : ''}${hover === n.id ? ' hover' : ''}`}
              onClick={() => choose('node', n.id)}
              onMouseEnter={() => hoverNode(store, n.id)}
            >
              <span className="name">{n.name || n.id}</span>
              <span className="muted">
                {n.id}
                {n.floor !== null ? ` · floor ${n.floor + 1}` : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <h3>
        Edges <span className="muted">({scene.graph.edges.length})</span>
      </h3>
      <ul className="list" data-testid="edge-list">
        {scene.graph.edges.map((e) => (
          <li key={e.id}>
            <button data-edge-item={e.id} className={selection?.kind === 'edge' && selection.id === e.id ? 'active' : ''} onClick={() => choose('edge', e.id)}>
              <span className={`dot ${edgeLabelState(scene.labels, agent, e.from, e.to)}`} />
              <span className="name">
                {names.get(e.from) ?? e.from} — {names.get(e.to) ?? e.to}
              </span>
              <span className="muted">{e.id}</span>
            </button>
          </li>
        ))}
      </ul>
      {node && <ConnectTo node={node} others={scene.graph.nodes.filter((n) => n.id !== node.id)} onConnect={(to) => connectNodes(store, node.id, to)} />}
    </div>
  );
}

const floorText = (floor: number | null) => (floor === null ? '' : String(floor + 1));

/**
 * Name, description and floor of a node; each field commits one undo step when it is left or Enter
 * is pressed. A floor the scan does not have is refused with the reason, and nothing changes.
 */
function NodeEditor({ node }: { node: NavNode }) {
  const store = useStudioStore();
  const renameRequest = useStudio((s) => s.ephemeral.renameRequest);
  const floorCount = useStudio((s) => sceneFloors(s).length);
  const nameRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(node.name);
  const [description, setDescription] = useState(node.description);
  const [floor, setFloor] = useState(floorText(node.floor));
  const [floorProblem, setFloorProblem] = useState<string | null>(null);
  useEffect(() => setName(node.name), [node.name]);
  useEffect(() => setDescription(node.description), [node.description]);
  useEffect(() => {
    setFloor(floorText(node.floor));
    setFloorProblem(null);
  }, [node.floor]);
  useEffect(() => {
    if (renameRequest) {
      nameRef.current?.focus();
      nameRef.current?.select();
    }
  }, [renameRequest]);
  const commitName = () => {
    if (name !== node.name) renameNode(store, node.id, name);
  };
  const commitDescription = () => {
    if (description !== node.description) describeNode(store, node.id, description);
  };
  const commitFloor = () => {
    if (floor.trim() === floorText(node.floor)) {
      setFloorProblem(null);
      return;
    }
    setFloorProblem(setNodeFloor(store, node.id, floor.trim() === '' ? null : Number(floor) - 1));
  };
  const blurOnEnter = (e: React.KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Enter') (e.currentTarget as HTMLElement).blur();
    if (e.key === 'Escape') {
      setName(node.name);
      setDescription(node.description);
      setFloor(floorText(node.floor));
      setFloorProblem(null);
    }
  };

  return (
    <form
      className="node-editor"
      data-testid="node-editor"
      onSubmit={(e) => {
        e.preventDefault();
        commitName();
        commitDescription();
      }}
    >
      <div className="muted">
        {node.id} · ({node.position.x.toFixed(2)}, {node.position.y.toFixed(2)}, {node.position.z.toFixed(2)})
      </div>
      <label>
        Name <input ref={nameRef} value={name} onChange={(e) => setName(e.target.value)} onBlur={commitName} onKeyDown={blurOnEnter} data-testid="node-name" />
      </label>
      <label>
        Description{' '}
        <textarea value={description} rows={2} onChange={(e) => setDescription(e.target.value)} onBlur={commitDescription} data-testid="node-description" />
      </label>
      <label>
        Floor{' '}
        <input
          type="number"
          min={1}
          max={Math.max(1, floorCount)}
          step={1}
          value={floor}
          placeholder="–"
          data-testid="node-floor"
          aria-invalid={floorProblem !== null}
          onChange={(e) => setFloor(e.target.value)}
          onBlur={commitFloor}
          onKeyDown={blurOnEnter}
        />
      </label>
      {floorProblem && (
        <p className="error" role="alert" data-testid="node-floor-problem">
          {floorProblem}
        </p>
      )}
    </form>
  );
}

function ConnectTo({ node, others, onConnect }: { node: NavNode; others: NavNode[]; onConnect: (id: string) => void }) {
  return (
    <label className="connect-to">
      Connect {node.name || node.id} to{' '}
      <select value="" onChange={(e) => e.target.value && onConnect(e.target.value)} aria-label="Connect to">
        <option value="">choose a node…</option>
        {others.map((n) => (
          <option key={n.id} value={n.id}>
            {n.name || n.id}
          </option>
        ))}
      </select>
    </label>
  );
}
