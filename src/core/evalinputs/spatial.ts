import { floorOf } from '../floors.ts';
import type { NavGraph } from '../graph.ts';
import type { TourPose } from '../tour/types.ts';
import type { MapFrame } from './mapFrame.ts';
import { DEPTH_FAR_M, mapFile, SPATIAL_PARTS, type EvalMap, type SpatialPart } from './types.ts';

/**
 * Spatial information added to the evaluation inputs (issue 27 §5, `eval-inputs --with`): depth
 * frames and top-down maps rendered from the scan (the files' layout is in types.ts), and the
 * topological graph as a section of the prompt.
 */

/** A floor's map is cut this high above the floor's highest node: walls and furniture show, the ceiling does not. */
export const MAP_CUT_M = 1.8;

/** `--with` parts, in SPATIAL_PARTS order (each once), and the words that name none. */
export function readSpatialParts(words: readonly string[]): { parts: SpatialPart[]; unknown: string[] } {
  const said = words.map((w) => w.trim().toLowerCase()).filter((w) => w !== '');
  return {
    parts: SPATIAL_PARTS.filter((p) => said.includes(p)),
    unknown: said.filter((w) => !(SPATIAL_PARTS as readonly string[]).includes(w)),
  };
}

/** What a run's results folder adds for its parts: `_with-depth+graph`, or nothing for frames only. */
export const variantSuffix = (parts: readonly SpatialPart[]): string => {
  const ordered = SPATIAL_PARTS.filter((p) => parts.includes(p));
  return ordered.length ? `_with-${ordered.join('+')}` : '';
};

/** Floors from 1, as people count them, from the nodes' floors (assigned, else by height). */
function nodeFloors(graph: Pick<NavGraph, 'nodes'>, up: 'y' | 'z'): Map<string, number> {
  const floors = floorOf(graph.nodes, up);
  const order = [...new Set(floors.values())].sort((a, b) => a - b);
  return new Map([...floors].map(([id, f]) => [id, order.indexOf(f) + 1]));
}

const metres = (x: number) => x.toFixed(2);

/**
 * The topological graph as a prompt section: every node with its name, floor and position, then
 * every edge with both ends' names. Positions are the graph's own (the scan's frame, metres).
 */
export function graphText(graph: Pick<NavGraph, 'nodes' | 'edges'>, up: 'y' | 'z' = 'y'): string {
  const floors = nodeFloors(graph, up);
  const name = new Map(graph.nodes.map((n) => [n.id, n.name.trim()]));
  const nodes = graph.nodes.map(
    (n) => `${n.id} - ${n.name.trim()} (floor ${floors.get(n.id)}; x ${metres(n.position.x)}, y ${metres(n.position.y)}, z ${metres(n.position.z)})`,
  );
  const edges = graph.edges.map((e) => `${e.from} (${name.get(e.from) ?? '?'}) <-> ${e.to} (${name.get(e.to) ?? '?'})`);
  return [
    '5.Topological Graph',
    `(Spatial information added to the inputs: the scene's navigation graph. Positions are in metres, ${up} is up; floors count from 1, the lowest. An edge is a connection between two nodes, either way.)`,
    `Nodes (${nodes.length}):\n\n\`\`\`\n${nodes.join('\n')}\n\`\`\``,
    `Edges (${edges.length}):\n\n\`\`\`\n${edges.join('\n')}\n\`\`\``,
  ].join('\n\n');
}

/** A scene's maps: one per floor with nodes, lowest first, each node numbered by its place in the graph (from 1). */
export function sceneMaps(scene: string, graph: Pick<NavGraph, 'nodes'>, up: 'y' | 'z' = 'y'): EvalMap[] {
  const floors = nodeFloors(graph, up);
  const count = new Set(floors.values()).size;
  return Array.from({ length: count }, (_, k) => ({
    file: mapFile(scene, k + 1),
    floor: k + 1,
    markers: graph.nodes.flatMap((n, i) => (floors.get(n.id) === k + 1 ? [{ label: String(i + 1), node: n.id }] : [])),
  }));
}

/** Metres to the depth PNG's millimetres: 0 stays "nothing hit", a hit is at least 1 mm, the deepest DEPTH_FAR_M. */
export function depthMillimetres(metresDepth: Float32Array): Uint16Array {
  const out = new Uint16Array(metresDepth.length);
  for (let i = 0; i < out.length; i++) {
    const d = metresDepth[i]!;
    out[i] = d > 0 ? Math.min(65_535, Math.max(1, Math.round(d * 1000))) : 0;
  }
  return out;
}

/** How depth is shown to a model: 8-bit grey, white at the eye, black at this depth and beyond (and where nothing was hit). */
export const DEPTH_PREVIEW_FAR_M = 10;

/** A depth frame (millimetres) as the 8-bit grey picture a model is sent: most image readers take a 16-bit PNG's values for 8-bit ones. */
export function depthPreview(mm: Uint16Array): Uint8Array {
  const out = new Uint8Array(mm.length);
  const far = DEPTH_PREVIEW_FAR_M * 1000;
  for (let i = 0; i < mm.length; i++) out[i] = mm[i]! === 0 ? 0 : Math.round(255 * (1 - Math.min(mm[i]!, far) / far));
  return out;
}

/** `frames/<SCENE>/<budget>/depth/depth.json`. */
export interface DepthInfo {
  format: 'traversa-depth';
  version: 1;
  /** PNG value × scale = metres; 0: nothing within DEPTH_FAR_M. */
  units: 'mm';
  scale: 0.001;
  depth: 'z (along the camera view axis)';
  camera: {
    /** The colour frames' camera (the poses document's): vertical field of view, yaw about +Y (0 looking along −Z), pitch up, no roll. */
    fovDeg: number;
    frameWidth: number;
    frameHeight: number;
    /** The depth frames' size: the same picture at 1/DEPTH_DOWNSCALE. */
    width: number;
    height: number;
    up: 'y' | 'z';
  };
  far: typeof DEPTH_FAR_M;
  /** Each depth frame, its colour frame and the pose (as the poses document gives it). */
  frames: { file: string; frame: string; index: number; t: number; pose: TourPose }[];
}

/** `maps/<SCENE>/map.json`. */
export interface MapInfo {
  format: 'traversa-map';
  version: 1;
  view: 'top-down orthographic, world +X right, world +Z down';
  /**
   * World (the scan's frame with its up axis turned to +Y, metres) to pixels: u = (x − x0) · pxPerM,
   * v = (z − z0) · pxPerM; the pixel holding a point is (floor u, floor v), rows from the top.
   */
  transform: MapFrame;
  floors: { floor: number; file: string; floorY: number; sliceY: number }[];
  /** Each node: its marker's number, its floor, its position (the graph's, and in the world) and its pixel [col, row]. */
  nodes: {
    node: string;
    label: string;
    floor: number;
    position: { x: number; y: number; z: number };
    world: { x: number; y: number; z: number };
    pixel: [number, number];
  }[];
}
