import { Vector3 } from 'three';
import type { NavGraph } from '../../core/graph.ts';
import { tourOrder } from '../../core/tour/order.ts';
import type { P3 } from '../../core/tour/view.ts';
import type { LoadedMesh } from '../mesh/types.ts';
import { prepareGeometry } from '../suggest/geometry.ts';
import { buildReferenceNavMesh } from '../suggest/navmesh.ts';
import { findRoute, floorUnderNode, snap } from '../suggest/route.ts';

/**
 * The automatic tour's route on the walkable surface: every node of the graph in a short order
 * (core/tour/order.ts over walking distances), joined by the reference walker's navmesh routes —
 * the permissive walker of the suggestions, through every door, up the stairs, round through other
 * rooms when that is the way. Where the navmesh has no route at all between two consecutive nodes
 * (a room reached only by crawling, or sealed) the leg is not walked: the video cuts from the one
 * node to the next (`cuts`, the index of the point the cut lands on) and says so in `skippedLegs`. A
 * camera walking the straight line would pass through walls.
 */

export interface TourLeg {
  from: string;
  to: string;
  /** Metres walked along the route when the leg starts and ends (the `to` node is visited at `toS`). */
  fromS: number;
  toS: number;
  /** The navmesh found no route: this leg is not walked (a cut). */
  skipped: boolean;
  why?: string;
}

export interface TourRoute {
  /** World points (Y up, metres) on the floor, in walking order. */
  points: P3[];
  /** Node ids in visiting order. */
  order: string[];
  legs: TourLeg[];
  /** Indices of `points` a cut lands on: the segment before each is not walked. */
  cuts: Set<number>;
  /** Legs not walked, with the reason the navmesh gave. */
  skippedLegs: { from: string; to: string; why: string }[];
  /** Node positions as the graph gives them (world), by id: what "in view" is judged on. */
  nodeWorld: Map<string, P3>;
}

/** A cut would be chosen over a long walk if it were not dearer than any walk: the tour walks where it can. */
const CUT_PENALTY = 3;
/** How far from a node reached by a cut the camera is set down, at most (it walks in from there). */
const APPROACH_M = [2, 1.5, 1] as const;

/**
 * The walk into a node from a spot in its room `APPROACH_M` away, as far as the room allows: the
 * walker's route from each of eight directions round it, the longest short one. The node's floor
 * alone when nothing round it is walkable.
 */
function approachTo(nav: Awaited<ReturnType<typeof buildReferenceNavMesh>>, floor: Vector3): Vector3[] {
  for (const r of APPROACH_M) {
    let best: Vector3[] | null = null,
      bestLength = 0;
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4;
      const spot = snap(nav, new Vector3(floor.x + r * Math.cos(a), floor.y, floor.z + r * Math.sin(a)));
      if (!spot) continue;
      const route = findRoute(nav, spot, floor);
      if (route.ok && route.lengthM <= r * 1.5 && route.lengthM > bestLength) {
        best = [spot, ...route.points, floor];
        bestLength = route.lengthM;
      }
    }
    if (best) return best;
  }
  return [floor];
}

export async function tourRoute(loaded: LoadedMesh, graph: Pick<NavGraph, 'nodes'>): Promise<TourRoute> {
  const nodes = graph.nodes;
  if (nodes.length === 0) throw new Error('the graph has no nodes: a tour visits the nodes, so draw the graph first');
  const geom = prepareGeometry(loaded);
  const nav = await buildReferenceNavMesh(geom);
  try {
    const world = nodes.map((n) => new Vector3(n.position.x, n.position.y, n.position.z).applyMatrix4(loaded.frame));
    const floors = world.map((p) => floorUnderNode(geom.solid, p));
    const n = nodes.length;
    const legs = new Map<string, { points: Vector3[]; length: number; skipped: boolean; why?: string }>();
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const r = findRoute(nav, floors[i]!, floors[j]!, [nodes[i]!.id, nodes[j]!.id]);
        if (r.ok) legs.set(`${i}|${j}`, { points: [floors[i]!, ...r.points, floors[j]!], length: r.lengthM, skipped: false });
        else legs.set(`${i}|${j}`, { points: [floors[i]!, floors[j]!], length: floors[i]!.distanceTo(floors[j]!) * CUT_PENALTY, skipped: true, why: r.why });
      }
    }
    const leg = (i: number, j: number) => {
      const l = legs.get(i < j ? `${i}|${j}` : `${j}|${i}`)!;
      return i < j ? l : { ...l, points: l.points.slice().reverse() };
    };
    const order = tourOrder(n, (i, j) => leg(i, j).length);

    const points: P3[] = [];
    const out: TourLeg[] = [];
    const skippedLegs: TourRoute['skippedLegs'] = [];
    const cuts = new Set<number>();
    let s = 0;
    const add = (p: Vector3, cut = false) => {
      const last = points[points.length - 1];
      if (last) {
        const d = Math.hypot(p.x - last.x, p.y - last.y, p.z - last.z);
        if (d < 1e-4) return;
        if (cut) cuts.add(points.length);
        else s += d;
      }
      points.push({ x: p.x, y: p.y, z: p.z });
    };
    add(floors[order[0]!]!);
    for (let k = 1; k < order.length; k++) {
      const i = order[k - 1]!,
        j = order[k]!;
      const l = leg(i, j);
      const fromS = s;
      if (l.skipped) {
        // Cut to a spot in the next node's room a couple of metres off, and walk in from there:
        // a camera set down on the node itself would not show it.
        const approach = approachTo(nav, floors[j]!);
        add(approach[0]!, true);
        for (const p of approach.slice(1)) add(p);
      } else for (const p of l.points) add(p);
      out.push({ from: nodes[i]!.id, to: nodes[j]!.id, fromS, toS: s, skipped: l.skipped, ...(l.why ? { why: l.why } : {}) });
      if (l.skipped) skippedLegs.push({ from: nodes[i]!.id, to: nodes[j]!.id, why: l.why ?? 'no walkable route' });
    }
    const toP3 = (v: Vector3): P3 => ({ x: v.x, y: v.y, z: v.z });
    return {
      points,
      order: order.map((i) => nodes[i]!.id),
      legs: out,
      cuts,
      skippedLegs,
      nodeWorld: new Map(nodes.map((nd, i) => [nd.id, toP3(world[i]!)])),
    };
  } finally {
    nav.dispose();
  }
}
