import { useMemo } from 'react';
import type { AgentName } from '../core/agents.ts';
import { floorOf } from '../core/floors.ts';
import { labelFor } from '../core/labels.ts';
import type { Scene } from '../core/project.ts';
import { undirectedKey } from '../core/graph.ts';

interface Props {
  scene: Scene;
  agent: AgentName;
  floor: number | 'all';
  /** Edges to emphasise (the selected question's work list) and its endpoints. */
  highlight: { edges: Set<string>; start?: string | null; end?: string | null };
  hoverNode: string | null;
  onHoverNode: (id: string | null) => void;
}

type EdgeState = 'traversable' | 'blocked' | 'unlabelled' | 'conflict';

function edgeState(scene: Scene, agent: AgentName, a: string, b: string): EdgeState {
  const ab = labelFor(scene.labels, agent, a, b);
  const ba = labelFor(scene.labels, agent, b, a);
  if (!ab && !ba) return 'unlabelled';
  if (ab && ba && ab.traversable !== ba.traversable) return 'conflict';
  return (ab ?? ba)!.traversable ? 'traversable' : 'blocked';
}

/**
 * The scene's navigation graph seen from above (x right, z down, the release's Y-up frame),
 * each edge coloured by the selected agent's label. Names are SVG text, never markup.
 */
export function GraphTopDown({ scene, agent, floor, highlight, hoverNode, onHoverNode }: Props) {
  const floors = useMemo(() => floorOf(scene.graph.nodes), [scene.graph.nodes]);
  const nodes = scene.graph.nodes;
  const byId = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  if (!nodes.length) return <p className="empty">This scene's graph has no nodes.</p>;

  const xs = nodes.map((n) => n.position.x), zs = nodes.map((n) => n.position.z);
  const minX = Math.min(...xs), maxX = Math.max(...xs), minZ = Math.min(...zs), maxZ = Math.max(...zs);
  const extent = Math.max(maxX - minX, maxZ - minZ, 1);
  const pad = extent * 0.12;
  const r = extent / 80;
  const font = extent / 45;
  const visible = (id: string) => floor === 'all' || floors.get(id) === floor;

  return (
    <svg className="graph" data-testid="graph-top-down" viewBox={`${minX - pad} ${minZ - pad} ${maxX - minX + 2 * pad} ${maxZ - minZ + 2 * pad}`} role="img" aria-label={`Navigation graph of ${scene.id}, top-down`}>
      {scene.graph.edges.map((e) => {
        const a = byId.get(e.from), b = byId.get(e.to);
        if (!a || !b || (!visible(a.id) && !visible(b.id))) return null;
        const state = edgeState(scene, agent, e.from, e.to);
        const hl = highlight.edges.has(undirectedKey(e.from, e.to));
        const crossesFloors = floors.get(a.id) !== floors.get(b.id);
        return (
          <line key={e.id} data-edge={undirectedKey(e.from, e.to)} data-state={state} className={`edge ${state}${hl ? ' highlighted' : ''}${crossesFloors ? ' stairs' : ''}`}
            x1={a.position.x} y1={a.position.z} x2={b.position.x} y2={b.position.z} strokeWidth={hl ? r * 0.9 : r * 0.45}>
            <title>{`${a.name} — ${b.name}: ${state} for ${agent}`}</title>
          </line>
        );
      })}
      {nodes.filter((n) => visible(n.id)).map((n) => {
        const role = n.id === highlight.start ? 'start' : n.id === highlight.end ? 'end' : '';
        return (
          <g key={n.id} className={`node ${role}${hoverNode === n.id ? ' hover' : ''}`} data-node={n.id}
            onPointerEnter={() => onHoverNode(n.id)} onPointerLeave={() => onHoverNode(null)}>
            <circle cx={n.position.x} cy={n.position.z} r={role ? r * 1.6 : r} />
            <text x={n.position.x + r * 1.5} y={n.position.z - r * 0.8} fontSize={font}>{n.name || n.id}</text>
            <title>{`${n.id} · ${n.name} · height ${n.position.y.toFixed(2)} m`}</title>
          </g>
        );
      })}
    </svg>
  );
}
