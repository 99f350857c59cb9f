import {
  freeCompactHeightfield,
  freeContourSet,
  freeHeightfield,
  freePolyMesh,
  freePolyMeshDetail,
  init,
  NavMeshQuery,
  type NavMesh,
} from '@recast-navigation/core';
import type { SoloNavMeshGeneratorIntermediates } from '@recast-navigation/generators';
import { generateSoloNavMesh } from '@recast-navigation/generators';
import { Matrix4, Vector3 } from 'three';
import { castRay, newRayHit } from '../rays/cast.ts';
import type { AgentProfile } from '../../core/agents.ts';
import type { Surface } from '../rays/surface.ts';
import type { SceneGeometry } from './geometry.ts';
import type { NavMeshInfo } from './types.ts';

/**
 * Per-agent navigation meshes (recast), in WORLD coordinates. The platform notes' pitfalls, each
 * handled here: the agent is given to recast in voxels (radius = ceil(r / cs), height = ceil(h / ch),
 * climb = floor(climb / ch)); the height must stay within 255 voxels, so tall agents get a coarser
 * cell height; cs 0.05 and ch 0.01 keep the rounding below the rules' centimetres; detailSampleDist
 * is at least 1 (lower crashes the wasm); partial paths are rejected by route.ts.
 *
 * The navmesh corroborates; it never decides a label. The probes (probes/*.ts) carry the precision.
 */

export interface NavMeshOptions {
  /** Horizontal voxel size (default 0.05 m). */
  cellSizeM?: number;
  /** Vertical voxel size (default 0.01 m, raised for agents taller than 255 voxels). */
  cellHeightM?: number;
  /** Leave door leaves out (default: whether the agent can open doors). */
  doorsOpen?: boolean;
}

export interface AgentNavMesh {
  info: NavMeshInfo;
  /** Null when the agent fits nowhere in the scan (recast found no walkable polygon): no route anywhere. */
  navMesh: NavMesh | null;
  query: NavMeshQuery | null;
  dispose(): void;
}

/**
 * The permissive agent whose routes say where an edge runs: thin, short, a good climber, and
 * through every door. Its route is where the probes measure.
 */
export const REFERENCE_AGENT: AgentProfile = {
  name: 'REFERENCE',
  shape: 'cylinder',
  heightM: 1.0,
  widthM: 0.2,
  depthM: null,
  maxStepM: 0.3,
  canUseStairs: true,
  canUseElevator: true,
  canOpenDoors: true,
  turningSpaceM: null,
  description: 'Reference walker used to find where each edge runs.',
};

/**
 * The reference walker's low twin, asked only when the reference finds no direct route: it fits
 * through anything its width passes down to 10 cm high (lower than the lowest CapNav agent, the
 * 0.15 m sweeper), so a crawl space has a route to measure. Its route goes under a low opening and
 * the probes then measure that opening's clear height, which the headroom rule (rules.ts 4b)
 * judges per agent — so the reference's own 1 m height never decides a label.
 */
export const LOW_REFERENCE_AGENT: AgentProfile = {
  ...REFERENCE_AGENT,
  name: 'REFERENCE_LOW',
  heightM: 0.1,
  description: 'Reference crawler used where the reference walker finds no direct route.',
};

/** The reference navmesh, with its low twin built on first need and disposed with it. */
export interface ReferenceNavMesh extends AgentNavMesh {
  low(): AgentNavMesh;
}

const MAX_HEIGHT_VOXELS = 250;
const IDENTITY = new Matrix4();

let ready: Promise<void> | null = null;
/** Load recast's wasm once. */
export function initRecast(): Promise<void> {
  ready ??= init();
  return ready;
}

interface WorldSoup {
  positions: Float32Array;
  indices: Uint32Array;
  bounds: [[number, number, number], [number, number, number]];
}
const soups = new WeakMap<Surface, WorldSoup>();

/** A surface's triangles in world coordinates, computed once per surface. */
function worldSoup(surface: Surface): WorldSoup {
  let soup = soups.get(surface);
  if (!soup) {
    const g = surface.geometry;
    const src = g.getAttribute('position');
    const e = (surface.frame as Matrix4).elements;
    const identity = surface.frame.equals(IDENTITY);
    // Recast copies its input into wasm memory, so an identity frame can hand over the array as it is.
    let positions: Float32Array;
    if (identity && !('isInterleavedBufferAttribute' in src) && src.array instanceof Float32Array && !src.normalized) positions = src.array;
    else {
      positions = new Float32Array(src.count * 3);
      for (let i = 0; i < src.count; i++) {
        const x = src.getX(i),
          y = src.getY(i),
          z = src.getZ(i);
        positions[i * 3] = e[0]! * x + e[4]! * y + e[8]! * z + e[12]!;
        positions[i * 3 + 1] = e[1]! * x + e[5]! * y + e[9]! * z + e[13]!;
        positions[i * 3 + 2] = e[2]! * x + e[6]! * y + e[10]! * z + e[14]!;
      }
    }
    const index = g.getIndex();
    const indices = index ? Uint32Array.from(index.array as ArrayLike<number>) : Uint32Array.from({ length: src.count }, (_, i) => i);
    faceUp(surface, positions, indices);
    soup = { positions, indices, bounds: boundsOf(positions) };
    soups.set(surface, soup);
  }
  return soup;
}

/**
 * Level triangles wound to face where the free space is. Recast takes a triangle whose winding faces
 * down for a ceiling, whatever its slope, and reconstructions wind faces either way: with half of a
 * scan's floor facing down its navmesh is full of holes and the reference finds no route. So a level
 * triangle that faces down is turned up when the space over it is open — a ray straight up from it
 * meets nothing within `OPEN_OVER_M` — as over a floor; the underside of a slab, a sill or a stair's
 * tread, with its own top a few centimetres above, stays a ceiling (turned up, it would let the
 * 10 cm crawler thread the inside of a slab).
 */
function faceUp(surface: Surface, p: Float32Array, idx: Uint32Array): void {
  const origin = new Vector3(),
    up = new Vector3(0, 1, 0),
    hit = newRayHit();
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t]! * 3,
      b = idx[t + 1]! * 3,
      c = idx[t + 2]! * 3;
    const ux = p[b]! - p[a]!,
      uy = p[b + 1]! - p[a + 1]!,
      uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!,
      vy = p[c + 1]! - p[a + 1]!,
      vz = p[c + 2]! - p[a + 2]!;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    // Facing down, and level enough for recast to walk on once turned.
    if (ny >= 0 || ny * ny < LEVEL_COS2 * (nx * nx + ny * ny + nz * nz)) continue;
    origin.set((p[a]! + p[b]! + p[c]!) / 3, (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3 + 0.002, (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3);
    if (castRay(surface, origin, up, OPEN_OVER_M, hit)) continue;
    idx[t + 1] = idx[t + 2]!;
    idx[t + 2] = b / 3;
  }
}
/** Free height over a floor turned up: more than a slab's or a tread's thickness. */
const OPEN_OVER_M = 0.5;
/** Steeper than recast's walkable slope (45°) is a wall whichever way it faces. */
const LEVEL_COS2 = Math.cos((45 * Math.PI) / 180) ** 2;

/** Passed to recast, which otherwise walks every index in JavaScript on each build (0.1–0.2 s at 1 M triangles). */
function boundsOf(p: Float32Array): WorldSoup['bounds'] {
  const min: [number, number, number] = [Infinity, Infinity, Infinity],
    max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = p[i + k]!;
      if (v < min[k]!) min[k] = v;
      if (v > max[k]!) max[k] = v;
    }
  }
  return [min, max];
}

const withDoors = new WeakMap<SceneGeometry, WorldSoup>();

/** The solid scan plus the door leaves, for agents that cannot open doors (built once per scene). */
function solidWithDoors(geom: SceneGeometry): WorldSoup {
  const a = worldSoup(geom.solid);
  if (!geom.doors) return a;
  let soup = withDoors.get(geom);
  if (!soup) {
    soup = combined(a, worldSoup(geom.doors));
    withDoors.set(geom, soup);
  }
  return soup;
}

function combined(a: WorldSoup, b: WorldSoup): WorldSoup {
  const positions = new Float32Array(a.positions.length + b.positions.length);
  positions.set(a.positions);
  positions.set(b.positions, a.positions.length);
  const base = a.positions.length / 3;
  const indices = new Uint32Array(a.indices.length + b.indices.length);
  indices.set(a.indices);
  for (let i = 0; i < b.indices.length; i++) indices[a.indices.length + i] = b.indices[i]! + base;
  const bounds: WorldSoup['bounds'] = [
    [0, 1, 2].map((k) => Math.min(a.bounds[0][k]!, b.bounds[0][k]!)) as [number, number, number],
    [0, 1, 2].map((k) => Math.max(a.bounds[1][k]!, b.bounds[1][k]!)) as [number, number, number],
  ];
  return { positions, indices, bounds };
}

/** Build one agent's navmesh from its footprint radius (width / 2), height and max step. */
export async function buildAgentNavMesh(geom: SceneGeometry, profile: AgentProfile, opts: NavMeshOptions = {}): Promise<AgentNavMesh> {
  await initRecast();
  return buildLoaded(geom, profile, opts);
}

/** The build itself, synchronous: recast's wasm must be loaded (initRecast) already. */
function buildLoaded(geom: SceneGeometry, profile: AgentProfile, opts: NavMeshOptions): AgentNavMesh {
  const started = performance.now();
  const cs = opts.cellSizeM ?? 0.05;
  const ch = Math.max(opts.cellHeightM ?? 0.01, profile.heightM / MAX_HEIGHT_VOXELS);
  const doorsOpen = opts.doorsOpen ?? profile.canOpenDoors;
  const soup = doorsOpen ? worldSoup(geom.solid) : solidWithDoors(geom);
  const walkableRadius = Math.ceil(profile.widthM / 2 / cs - 1e-6);
  const walkableHeight = Math.ceil(profile.heightM / ch - 1e-6);
  const walkableClimb = Math.floor(profile.maxStepM / ch + 1e-6);
  const result = generateSoloNavMesh(
    soup.positions,
    soup.indices,
    {
      cs,
      ch,
      walkableRadius,
      walkableHeight,
      walkableClimb,
      walkableSlopeAngle: 45,
      // In cells: 6 × 5 cm height samples and 2 cm height error are plenty for corroboration and keep the
      // detail pass cheap (sampling every cell costs more than the rest of the build).
      detailSampleDist: 6,
      detailSampleMaxError: 2,
      maxEdgeLen: Math.round(12 / cs),
      maxSimplificationError: 1.3,
      minRegionArea: 8,
      mergeRegionArea: 20,
      maxVertsPerPoly: 6,
      bounds: soup.bounds,
    },
    true,
  );
  // Kept to tell "the agent fits nowhere" (no polygons: Detour refuses to build) from a real failure.
  const empty = result.intermediates.polyMesh?.npolys() === 0;
  freeIntermediates(result.intermediates);
  if (!result.success && !empty) throw new Error(`the navmesh for ${profile.name} could not be built (${result.error})`);
  const navMesh = result.success ? result.navMesh : null;
  const query = navMesh ? new NavMeshQuery(navMesh, { maxNodes: 8192 }) : null;
  let polygons = 0;
  for (let t = 0; navMesh && t < navMesh.getMaxTiles(); t++) polygons += navMesh.getTile(t).header()?.polyCount() ?? 0;
  const info: NavMeshInfo = {
    agent: profile.name,
    buildMs: performance.now() - started,
    radiusM: walkableRadius * cs,
    heightM: walkableHeight * ch,
    climbM: walkableClimb * ch,
    cellSizeM: cs,
    cellHeightM: ch,
    polygons,
  };
  let disposed = false;
  return {
    info,
    navMesh,
    query,
    dispose() {
      if (disposed) return;
      disposed = true;
      query?.destroy();
      navMesh?.destroy();
    },
  };
}

function freeIntermediates(i: SoloNavMeshGeneratorIntermediates): void {
  if (i.heightfield) freeHeightfield(i.heightfield);
  if (i.compactHeightfield) freeCompactHeightfield(i.compactHeightfield);
  if (i.contourSet) freeContourSet(i.contourSet);
  if (i.polyMesh) freePolyMesh(i.polyMesh);
  if (i.polyMeshDetail) freePolyMeshDetail(i.polyMeshDetail);
}

/**
 * The reference navmesh (REFERENCE_AGENT, doors open). Its low twin (LOW_REFERENCE_AGENT) is built
 * on the first `low()`: synchronously, as recast is loaded by then, so the edges' ways stay
 * synchronous; a scan whose every edge has a walker's route never pays for it.
 */
export async function buildReferenceNavMesh(geom: SceneGeometry, opts: Omit<NavMeshOptions, 'doorsOpen'> = {}): Promise<ReferenceNavMesh> {
  const nav = await buildAgentNavMesh(geom, REFERENCE_AGENT, { ...opts, doorsOpen: true });
  let low: AgentNavMesh | null = null;
  return {
    ...nav,
    low: () => (low ??= buildLoaded(geom, LOW_REFERENCE_AGENT, { ...opts, doorsOpen: true })),
    dispose() {
      nav.dispose();
      low?.dispose();
    },
  };
}
