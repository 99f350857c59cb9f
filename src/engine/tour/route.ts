import { Vector3 } from 'three';
import type { NavGraph } from '../../core/graph.ts';
import { tourOrder } from '../../core/tour/order.ts';
import type { P3 } from '../../core/tour/view.ts';
import type { LoadedMesh } from '../mesh/types.ts';
import { prepareGeometry } from '../suggest/geometry.ts';
import { buildReferenceNavMesh } from '../suggest/navmesh.ts';
import { findRoute, floorUnderNode } from '../suggest/route.ts';

/**
 * The automatic tour's route on the walkable surface: every node of the graph in a short order
 * (core/tour/order.ts over walking distances), joined by the reference walker's navmesh routes —
 * the permissive walker of the suggestions, through every door, up the stairs. Where the navmesh
 * has no route between two consecutive nodes the tour walks the straight line between them (through
 * whatever is in the way) and says so in `straightLegs`.
 */

export interface TourLeg {
  from: string;
  to: string;
  /** Metres walked along the route when the leg starts and ends (the `to` node is visited at `toS`). */
  fromS: number;
  toS: number;
  /** The navmesh found no route: this leg is the straight line between the nodes. */
  straight: boolean;
  why?: string;
}

export interface TourRoute {
  /** World points (Y up, metres) on the floor, in walking order. */
  points: P3[];
  /** Node ids in visiting order. */
  order: string[];
  legs: TourLeg[];
  /** Legs walked as straight lines, with the reason the navmesh gave. */
  straightLegs: { from: string; to: string; why: string }[];
  /** Node positions as the graph gives them (world), by id: what "in view" is judged on. */
  nodeWorld: Map<string, P3>;
}

/** A detour through the unwalkable would be chosen over a long walk if it were not dearer than any walk. */
const STRAIGHT_PENALTY = 3;

export async function tourRoute(loaded: LoadedMesh, graph: Pick<NavGraph, 'nodes'>): Promise<TourRoute> {
  const nodes = graph.nodes;
  if (nodes.length === 0) throw new Error('the graph has no nodes: a tour visits the nodes, so draw the graph first');
  const geom = prepareGeometry(loaded);
  const nav = await buildReferenceNavMesh(geom);
  try {
    const world = nodes.map((n) => new Vector3(n.position.x, n.position.y, n.position.z).applyMatrix4(loaded.frame));
    const floors = world.map((p) => floorUnderNode(geom.solid, p));
    const n = nodes.length;
    const legs = new Map<string, { points: Vector3[]; length: number; straight: boolean; why?: string }>();
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const r = findRoute(nav, floors[i]!, floors[j]!, [nodes[i]!.id, nodes[j]!.id]);
        if (r.ok) legs.set(`${i}|${j}`, { points: [floors[i]!, ...r.points, floors[j]!], length: r.lengthM, straight: false });
        else legs.set(`${i}|${j}`, { points: [floors[i]!, floors[j]!], length: floors[i]!.distanceTo(floors[j]!) * STRAIGHT_PENALTY, straight: true, why: r.why });
      }
    }
    const leg = (i: number, j: number) => {
      const l = legs.get(i < j ? `${i}|${j}` : `${j}|${i}`)!;
      return i < j ? l : { ...l, points: l.points.slice().reverse() };
    };
    const order = tourOrder(n, (i, j) => leg(i, j).length);

    const points: P3[] = [];
    const out: TourLeg[] = [];
    const straightLegs: TourRoute['straightLegs'] = [];
    let s = 0;
    const add = (p: Vector3) => {
      const last = points[points.length - 1];
      if (last) {
        const d = Math.hypot(p.x - last.x, p.y - last.y, p.z - last.z);
        if (d < 1e-4) return;
        s += d;
      }
      points.push({ x: p.x, y: p.y, z: p.z });
    };
    add(floors[order[0]!]!);
    for (let k = 1; k < order.length; k++) {
      const i = order[k - 1]!, j = order[k]!;
      const l = leg(i, j);
      const fromS = s;
      for (const p of l.points) add(p);
      out.push({ from: nodes[i]!.id, to: nodes[j]!.id, fromS, toS: s, straight: l.straight, ...(l.why ? { why: l.why } : {}) });
      if (l.straight) straightLegs.push({ from: nodes[i]!.id, to: nodes[j]!.id, why: l.why ?? 'no walkable route' });
    }
    const toP3 = (v: Vector3): P3 => ({ x: v.x, y: v.y, z: v.z });
    return {
      points, order: order.map((i) => nodes[i]!.id), legs: out, straightLegs,
      nodeWorld: new Map(nodes.map((nd, i) => [nd.id, toP3(world[i]!)])),
    };
  } finally {
    nav.dispose();
  }
}
