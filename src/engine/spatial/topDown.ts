import { Box3, Vector3 } from 'three';
import { mapFrameOf, mapPixelOf, type MapBounds, type MapFrame } from '../../core/evalinputs/mapFrame.ts';
import { drawMarkers, shadeMap, type MapSurface } from '../../core/evalinputs/mapImage.ts';
import { MAP_CUT_M, type MapInfo } from '../../core/evalinputs/spatial.ts';
import type { EvalMap } from '../../core/evalinputs/types.ts';
import type { NavGraph } from '../../core/graph.ts';
import type { LoadedMesh } from '../mesh/types.ts';
import { scanSurface, type Surface } from '../rays/surface.ts';
import { rasterizeColumns } from '../terrain/rasterize.ts';

/** The scan's extent in the world (x and z: what a top-down map shows; y: its lowest and highest point). */
export function scanBounds(surface: Surface): MapBounds & { minY: number; maxY: number } {
  const g = surface.geometry;
  if (!g.boundingBox) g.computeBoundingBox();
  const b = new Box3().copy(g.boundingBox!).applyMatrix4(surface.frame);
  return { minX: b.min.x, maxX: b.max.x, minZ: b.min.z, maxZ: b.max.z, minY: b.min.y, maxY: b.max.y };
}

/**
 * The map's surface: for each pixel, the top of the highest solid of the scan below `topY` (capped
 * there) — an orthographic view from straight above of the scan cut at `topY`, so walls show as
 * the solids they are (rays straight down would pass beside a wall without a top) and ceilings and
 * the storeys above do not. The solids are the planner's columns (terrain/rasterize.ts), one
 * column a pixel, door leaves included.
 */
export function topDownSurface(surface: Surface, m: MapFrame, topY: number, bottomY: number): MapSurface {
  const grid = { x0: m.x0, z0: m.z0, cellM: 1 / m.pxPerM, nx: m.width, nz: m.height };
  const cols = rasterizeColumns([{ surface, door: false }], grid, null, bottomY, topY);
  const heightY = new Float32Array(m.width * m.height).fill(NaN);
  for (let c = 0; c < heightY.length; c++) {
    let top = -Infinity;
    for (let k = cols.start[c]!; k < cols.start[c + 1]!; k++) if (cols.lo[k]! <= topY) top = Math.max(top, Math.min(cols.hi[k]!, topY));
    if (top > -Infinity) heightY[c] = top;
  }
  return { width: m.width, height: m.height, heightY };
}

/**
 * A scene's maps (one a floor, as `maps` cite them) and their map.json: every floor in one frame
 * (the scan's extent and its nodes), cut MAP_CUT_M above the floor's lowest node, each node's
 * marker on its floor's map. Pictures are RGBA rows from the top.
 */
export function renderMaps(
  loaded: Pick<LoadedMesh, 'collision' | 'frame'>,
  graph: Pick<NavGraph, 'nodes'>,
  maps: readonly EvalMap[],
): { info: MapInfo; pictures: { file: string; rgba: Uint8Array }[] } {
  const surface = scanSurface(loaded);
  const bounds = scanBounds(surface);
  const world = new Map(graph.nodes.map((n) => [n.id, new Vector3(n.position.x, n.position.y, n.position.z).applyMatrix4(loaded.frame)]));
  const at = [...world.values()];
  const frame = mapFrameOf({
    minX: Math.min(bounds.minX, ...at.map((p) => p.x)),
    maxX: Math.max(bounds.maxX, ...at.map((p) => p.x)),
    minZ: Math.min(bounds.minZ, ...at.map((p) => p.z)),
    maxZ: Math.max(bounds.maxZ, ...at.map((p) => p.z)),
  });
  const info: MapInfo = {
    format: 'traversa-map',
    version: 1,
    view: 'top-down orthographic, world +X right, world +Z down',
    transform: frame,
    floors: [],
    nodes: [],
  };
  const pictures = maps.map((m) => {
    const heights = m.markers.map((k) => world.get(k.node)!.y);
    // From the floor's level, not its highest node: nodes kept on a floor by hand, or a band that a
    // staircase joins to the storey above, would put the cut over the next storey.
    const floorY = Math.min(...heights),
      sliceY = floorY + MAP_CUT_M;
    const markers = m.markers.map((k) => {
      const p = world.get(k.node)!;
      const [col, row] = mapPixelOf(frame, p.x, p.z);
      const { position } = graph.nodes.find((n) => n.id === k.node)!;
      info.nodes.push({ node: k.node, label: k.label, floor: m.floor, position: { ...position }, world: { x: p.x, y: p.y, z: p.z }, pixel: [col, row] });
      return { col, row, label: k.label };
    });
    const rgba = shadeMap(topDownSurface(surface, frame, sliceY, Math.min(bounds.minY, floorY) - 1), floorY, sliceY);
    drawMarkers(rgba, frame.width, frame.height, markers);
    info.floors.push({ floor: m.floor, file: m.file.split('/').pop()!, floorY, sliceY });
    return { file: m.file, rgba };
  });
  return { info, pictures };
}
