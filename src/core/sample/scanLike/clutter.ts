import { floorHeight, type HouseSpec, type Rect, type RoomSpec, type Vec2 } from '../houseSpec.ts';
import type { Part } from './parts.ts';

/**
 * Furniture and clutter, as every scanned home has it, placed so that no true answer changes: a
 * table (and a chair beside it) in a corner of each room, a rug with a 1 cm edge under the room's
 * node where it fits, and a pot beside (not in) each doorway. Nothing is put where an edge's
 * obstacle is decided: away from every opening, the stairs, the lift, the ramps, the narrow
 * corridor and the corner, more than a metre from each node and from the straight way between a
 * node and its room's doors. What remains is what clutter does to a scan: more surfaces, tables and
 * chairs the agents walk round or (the sweeper) under, a rug edge to cross.
 */

type V3 = [number, number, number];

/** A closed box, wound outward. */
function box(p: Part, min: V3, max: V3): void {
  const [x0, y0, z0] = min,
    [x1, y1, z1] = max;
  const base = p.positions.length / 3;
  for (const [x, y, z] of [
    [x0, y0, z0],
    [x1, y0, z0],
    [x1, y1, z0],
    [x0, y1, z0],
    [x0, y0, z1],
    [x1, y0, z1],
    [x1, y1, z1],
    [x0, y1, z1],
  ] as V3[])
    p.positions.push(x, y, z);
  // Faces as quads (a, b, c, d) counter-clockwise seen from outside.
  for (const [a, b, c, d] of [
    [0, 3, 2, 1],
    [4, 5, 6, 7],
    [0, 1, 5, 4],
    [3, 7, 6, 2],
    [0, 4, 7, 3],
    [1, 2, 6, 5],
  ] as const) {
    p.indices.push(base + a, base + b, base + c, base + a, base + c, base + d);
  }
}

const grow = (r: Rect, m: number): Rect => ({ x0: r.x0 - m, x1: r.x1 + m, z0: r.z0 - m, z1: r.z1 + m });
const overlaps = (a: Rect, b: Rect) => a.x0 < b.x1 && b.x0 < a.x1 && a.z0 < b.z1 && b.z0 < a.z1;

/** A wall's solid on the plan (its openings included: they bound rooms too). */
function wallRect(w: HouseSpec['walls'][number]): Rect {
  const c0 = w.at - w.thicknessM / 2,
    c1 = w.at + w.thicknessM / 2;
  return w.run === 'x' ? { x0: w.from, x1: w.to, z0: c0, z1: c1 } : { x0: c0, x1: c1, z0: w.from, z1: w.to };
}

/** The room's rectangle: from its centre to the nearest wall face in each direction. */
function roomRect(spec: HouseSpec, room: RoomSpec): Rect {
  const { x, z } = room.centre;
  const walls = spec.walls.filter((w) => w.floor === room.floor).map(wallRect);
  let x0 = -Infinity,
    x1 = Infinity,
    z0 = -Infinity,
    z1 = Infinity;
  for (const r of walls) {
    if (r.z0 <= z && z <= r.z1) {
      if (r.x1 <= x) x0 = Math.max(x0, r.x1);
      if (r.x0 >= x) x1 = Math.min(x1, r.x0);
    }
    if (r.x0 <= x && x <= r.x1) {
      if (r.z1 <= z) z0 = Math.max(z0, r.z1);
      if (r.z0 >= z) z1 = Math.min(z1, r.z0);
    }
  }
  return { x0, x1, z0, z1 };
}

/** Distance on the plan from a point to a segment. */
function toSegment(p: Vec2, a: Vec2, b: Vec2): number {
  const dx = b.x - a.x,
    dz = b.z - a.z,
    len2 = dx * dx + dz * dz;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.z - a.z) * dz) / len2)) : 0;
  return Math.hypot(a.x + t * dx - p.x, a.z + t * dz - p.z);
}

/** Distance on the plan from a rectangle to a segment (0 when they meet), by sampling the rectangle's outline and the segment. */
function rectToSegment(r: Rect, a: Vec2, b: Vec2): number {
  let best = Infinity;
  for (let k = 0; k <= 20; k++) {
    const t = k / 20;
    const p = { x: a.x + t * (b.x - a.x), z: a.z + t * (b.z - a.z) };
    if (p.x >= r.x0 && p.x <= r.x1 && p.z >= r.z0 && p.z <= r.z1) return 0;
    for (const c of [
      { x: r.x0 + t * (r.x1 - r.x0), z: r.z0 },
      { x: r.x0 + t * (r.x1 - r.x0), z: r.z1 },
      { x: r.x0, z: r.z0 + t * (r.z1 - r.z0) },
      { x: r.x1, z: r.z0 + t * (r.z1 - r.z0) },
    ]) {
      best = Math.min(best, toSegment(c, a, b));
    }
  }
  return best;
}

/** Places nothing may go on a floor: every passage an edge is judged at, grown by a metre. */
function keepOut(spec: HouseSpec, floor: number): Rect[] {
  const out: Rect[] = [];
  for (const w of spec.walls) {
    if (w.floor !== floor) continue;
    for (const o of w.openings) {
      const a = o.centre - o.clearWidthM / 2,
        b = o.centre + o.clearWidthM / 2;
      out.push(grow(w.run === 'x' ? { x0: a, x1: b, z0: w.at, z1: w.at } : { x0: w.at, x1: w.at, z0: a, z1: b }, 1.0));
    }
  }
  const s = spec.stairs;
  if (s && (s.fromFloor === floor || s.toFloor === floor)) {
    const r0 = s.firstRiserAt,
      r1 = s.firstRiserAt + s.dir * s.goingM * s.risers;
    const run = { lo: Math.min(r0, r1), hi: Math.max(r0, r1) };
    out.push(
      grow(s.run === 'z' ? { x0: s.across[0], x1: s.across[1], z0: run.lo, z1: run.hi } : { x0: run.lo, x1: run.hi, z0: s.across[0], z1: s.across[1] }, 1.2),
    );
  }
  if (spec.lift?.floors.includes(floor)) out.push(grow(spec.lift.cabin, 1.0));
  if (spec.corridor) out.push(grow(spec.corridor.clear, 1.0));
  if (spec.corner) for (const r of [spec.corner.legA.clear, spec.corner.square, spec.corner.legB.clear]) out.push(grow(r, 1.0));
  for (const r of spec.ramps ?? []) if (r.floor === floor) out.push(grow(r.clear, 1.0));
  for (const slab of spec.slabs) for (const h of slab.holes) out.push(grow(h, 0.6));
  return out;
}

/** Whether a piece of furniture may stand at `r` in `room`: inside it, clear of every passage and of the ways to them. */
function free(spec: HouseSpec, room: RoomSpec, inRoom: Rect, r: Rect, avoid: Rect[], taken: Rect[]): boolean {
  if (r.x0 < inRoom.x0 || r.x1 > inRoom.x1 || r.z0 < inRoom.z0 || r.z1 > inRoom.z1) return false;
  if (avoid.some((k) => overlaps(k, r)) || taken.some((k) => overlaps(grow(k, 0.05), r))) return false;
  for (const other of spec.rooms) {
    if (other.floor !== room.floor) continue;
    if (rectToSegment(r, other.centre, other.centre) < 1.0) return false;
  }
  // The straight way from this room's node to each opening on its walls.
  for (const w of spec.walls) {
    if (w.floor !== room.floor) continue;
    for (const o of w.openings) {
      const c = w.run === 'x' ? { x: o.centre, z: w.at } : { x: w.at, z: o.centre };
      if (c.x < inRoom.x0 - 0.3 || c.x > inRoom.x1 + 0.3 || c.z < inRoom.z0 - 0.3 || c.z > inRoom.z1 + 0.3) continue;
      if (rectToSegment(r, room.centre, c) < 0.9) return false;
    }
  }
  return true;
}

export interface ClutterReport {
  tables: number;
  chairs: number;
  rugs: number;
  pots: number;
}

/** A rug's thickness: the edge every route off a rugged node crosses. */
export const RUG_EDGE_M = 0.01;

/** Add the clutter to `furniture` (a part of its own). */
export function addClutter(spec: HouseSpec, furniture: Part, r: () => number): ClutterReport {
  const report: ClutterReport = { tables: 0, chairs: 0, rugs: 0, pots: 0 };
  const taken: Rect[] = [];
  const GAP = 0.03,
    TABLE = 0.8,
    TOP: [number, number] = [0.72, 0.75],
    LEG = 0.05;
  for (const room of spec.rooms) {
    const y = floorHeight(spec, room.floor) + (room.levelM ?? 0);
    const inRoom = roomRect(spec, room);
    if (![inRoom.x0, inRoom.x1, inRoom.z0, inRoom.z1].every(Number.isFinite)) continue;
    const avoid = keepOut(spec, room.floor);
    const first = Math.floor(r() * 4);
    for (let k = 0; k < 4; k++) {
      const c = (first + k) % 4;
      const east = c & 1,
        south = c >> 1;
      const x0 = east ? inRoom.x1 - GAP - TABLE : inRoom.x0 + GAP,
        z0 = south ? inRoom.z1 - GAP - TABLE : inRoom.z0 + GAP;
      const t: Rect = { x0, x1: x0 + TABLE, z0, z1: z0 + TABLE };
      if (!free(spec, room, inRoom, t, avoid, taken)) continue;
      box(furniture, [t.x0, y + TOP[0], t.z0], [t.x1, y + TOP[1], t.z1]);
      for (const [lx, lz] of [
        [t.x0, t.z0],
        [t.x1 - LEG, t.z0],
        [t.x0, t.z1 - LEG],
        [t.x1 - LEG, t.z1 - LEG],
      ] as const)
        box(furniture, [lx, y, lz], [lx + LEG, y + TOP[0], lz + LEG]);
      taken.push(t);
      report.tables++;
      // A chair beside it, along the wall the table's x side does not touch, seat towards the room.
      const cx0 = east ? t.x0 - 0.12 - 0.42 : t.x1 + 0.12;
      const chair: Rect = { x0: cx0, x1: cx0 + 0.42, z0: t.z0, z1: t.z0 + 0.42 };
      if (free(spec, room, inRoom, chair, avoid, taken)) {
        box(furniture, [chair.x0, y + 0.42, chair.z0], [chair.x1, y + 0.45, chair.z1]);
        for (const [lx, lz] of [
          [chair.x0, chair.z0],
          [chair.x1 - 0.03, chair.z0],
          [chair.x0, chair.z1 - 0.03],
          [chair.x1 - 0.03, chair.z1 - 0.03],
        ] as const)
          box(furniture, [lx, y, lz], [lx + 0.03, y + 0.42, lz + 0.03]);
        const backZ = south ? chair.z1 - 0.03 : chair.z0;
        box(furniture, [chair.x0, y + 0.45, backZ], [chair.x1, y + 0.9, backZ + 0.03]);
        taken.push(chair);
        report.chairs++;
      }
      break;
    }
    // A rug under the node, 1 cm thick, where it fits with half a metre to the walls.
    const rug: Rect = { x0: room.centre.x - 0.7, x1: room.centre.x + 0.7, z0: room.centre.z - 0.45, z1: room.centre.z + 0.45 };
    const inner = grow(inRoom, -0.5);
    if (rug.x0 >= inner.x0 && rug.x1 <= inner.x1 && rug.z0 >= inner.z0 && rug.z1 <= inner.z1 && !avoid.some((k) => overlaps(k, rug))) {
      box(furniture, [rug.x0, y, rug.z0], [rug.x1, y + RUG_EDGE_M, rug.z1]);
      report.rugs++;
    }
  }
  report.pots += addPots(spec, furniture, taken, r);
  return report;
}

/** A 0.3 m pot against the wall beside each doorway, 0.35 m from a jamb, on a side drawn at random. */
function addPots(spec: HouseSpec, furniture: Part, taken: Rect[], r: () => number): number {
  let pots = 0;
  for (const c of spec.connections) {
    if (c.passage.kind !== 'doorway') continue;
    const id = c.passage.opening;
    const w = spec.walls.find((x) => x.openings.some((o) => o.id === id));
    const o = w?.openings.find((x) => x.id === id);
    if (!w || !o) continue;
    const y = floorHeight(spec, w.floor);
    const along = r() < 0.5 ? o.centre - o.clearWidthM / 2 - 0.35 - 0.3 : o.centre + o.clearWidthM / 2 + 0.35;
    const face = r() < 0.5 ? -1 : 1;
    const across0 = face < 0 ? w.at - w.thicknessM / 2 - 0.03 - 0.3 : w.at + w.thicknessM / 2 + 0.03;
    const pot: Rect =
      w.run === 'x' ? { x0: along, x1: along + 0.3, z0: across0, z1: across0 + 0.3 } : { x0: across0, x1: across0 + 0.3, z0: along, z1: along + 0.3 };
    const others = keepOut({ ...spec, walls: spec.walls.map((x) => ({ ...x, openings: x.openings.filter((p) => p.id !== id) })) }, w.floor);
    const inWall = spec.walls.filter((x) => x.floor === w.floor).some((x) => overlaps(wallRect(x), pot));
    const inRoom = spec.rooms.some((room) => {
      const q = roomRect(spec, room);
      return room.floor === w.floor && pot.x0 >= q.x0 && pot.x1 <= q.x1 && pot.z0 >= q.z0 && pot.z1 <= q.z1;
    });
    if (inWall || !inRoom || others.some((k) => overlaps(k, pot)) || taken.some((k) => overlaps(k, pot))) continue;
    box(furniture, [pot.x0, y, pot.z0], [pot.x1, y + 0.6, pot.z1]);
    taken.push(pot);
    pots++;
  }
  return pots;
}
