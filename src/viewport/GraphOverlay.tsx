import { StableLine as Line } from './StableLine.tsx';
import type { Vector3 } from 'three';
import { edgeLabelState, type EdgeLabelState } from '../core/labels.ts';
import type { Scene } from '../core/project.ts';
import { undirectedKey } from '../core/graph.ts';
import { useStore } from 'zustand';
import type { StudioStore } from '../state/store.ts';

export const NODE_RADIUS = 0.14;

const EDGE_COLOUR: Record<EdgeLabelState, string> = { traversable: '#1f8a4c', blocked: '#c8322b', conflict: '#d9822b', unlabelled: '#7d8896' };

interface Props {
  store: StudioStore;
  scene: Scene;
  world: Map<string, Vector3>;
  agent: string;
  maxY: number;
  /** Things below this height are not drawn either (the label view shows one floor, or the two a segment joins). */
  minY?: number;
  selection: { kind: 'node' | 'edge'; id: string } | null;
  connectFrom: string | null;
  route: { edges: Set<string>; start: string | null; end: string | null };
  /** The segment being labelled, drawn over everything. */
  segment?: { from: string; to: string } | null;
  /** Nodes the open question-answer item refers to. */
  highlight?: ReadonlySet<string>;
}

/**
 * The navigation graph over the scan: nodes as spheres with their names, edges coloured by the
 * chosen agent's labels, the selection and the selected question's route emphasised (names are
 * drawn by the label layer). Things above the slice are not drawn.
 */
export const nodeVisible = (world: Map<string, Vector3>, id: string, maxY: number, minY = -Infinity) => {
  const y = world.get(id)?.y ?? Infinity;
  return y <= maxY + 0.05 && y >= minY - 0.05;
};

export function GraphOverlay({ store, scene, world, agent, maxY, minY = -Infinity, selection, connectFrom, route, segment, highlight }: Props) {
  // Read here, so that a hover draws the graph again and not the whole workspace (the store comes as
  // a prop: this draws inside the canvas, another React root).
  const hoverNode = useStore(store, (s) => s.ephemeral.hoverNode);
  const visible = (id: string) => nodeVisible(world, id, maxY, minY);
  const sa = segment && world.get(segment.from),
    sb = segment && world.get(segment.to);
  return (
    <group>
      {sa && sb && <Line points={[sa, sb]} color="#ffb703" lineWidth={10} depthTest={false} renderOrder={3} />}
      {scene.graph.edges.map((e) => {
        const a = world.get(e.from),
          b = world.get(e.to);
        if (!a || !b || (!visible(e.from) && !visible(e.to))) return null;
        const selected = selection?.kind === 'edge' && selection.id === e.id;
        const onRoute = route.edges.has(undirectedKey(e.from, e.to));
        const state = edgeLabelState(scene.labels, agent, e.from, e.to);
        return (
          <Line
            key={e.id}
            points={[a, b]}
            color={selected ? '#ffd166' : EDGE_COLOUR[state]}
            lineWidth={selected ? 6 : onRoute ? 5 : 2.5}
            dashed={state === 'unlabelled'}
            dashSize={0.2}
            gapSize={0.12}
            depthTest={false}
            renderOrder={2}
          />
        );
      })}
      {scene.graph.nodes.map((n) => {
        const p = world.get(n.id);
        if (!p || !visible(n.id)) return null;
        const selected = selection?.kind === 'node' && selection.id === n.id;
        const colour = selected
          ? '#ffd166'
          : connectFrom === n.id
            ? '#8ecae6'
            : n.id === route.start
              ? '#2a9d8f'
              : n.id === route.end
                ? '#e76f51'
                : hoverNode === n.id
                  ? '#ffe8a3'
                  : highlight?.has(n.id)
                    ? '#f72585'
                    : '#ffffff';
        return (
          <group key={n.id} position={p}>
            <mesh renderOrder={3}>
              <sphereGeometry args={[NODE_RADIUS * (selected || highlight?.has(n.id) ? 1.35 : 1), 20, 14]} />
              <meshBasicMaterial color={colour} depthTest={false} transparent opacity={0.95} />
            </mesh>
          </group>
        );
      })}
    </group>
  );
}
