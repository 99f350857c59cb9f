import { Vector3 } from 'three';
import type { PathPreview } from '../state/store.ts';

export interface RouteLabels {
  /** Nodes of the route and what their label is prefixed with: the step number, S/E for the question's ends off the route, · for the compared route's. */
  order: Map<string, string>;
  /** The stepped-to hop's note, drawn at its middle. */
  hopNote: { at: Vector3; text: string; state: string } | null;
}

const NONE: RouteLabels = { order: new Map(), hopNote: null };

/**
 * What the route viewer adds to the 3D view: the route's nodes labelled first (numbered in route
 * order; every other name is dimmed by the caller), the points to frame, and the note of the hop
 * stepped to.
 */
export function routeLabels(preview: PathPreview | null, world: Map<string, Vector3>): RouteLabels {
  if (!preview) return NONE;
  const order = new Map<string, string>();
  // Every visit its number: a node the route comes back to reads "2, 5".
  const steps = preview.hops.length ? [preview.hops[0]!.from, ...preview.hops.map((h) => h.to)] : [];
  let k = 0;
  for (const id of steps) {
    k++;
    if (!id) continue;
    const had = order.get(id);
    order.set(id, had ? `${had}, ${k}` : String(k));
  }
  if (preview.hops.length === 0 && preview.wrongStart === null && preview.gtRoute?.[0]) order.set(preview.gtRoute[0], String(++k));
  for (const [id, tag] of [
    [preview.wrongStart, 'S'],
    [preview.wrongEnd, 'E'],
  ] as const)
    if (id && !order.has(id)) order.set(id, tag);
  for (const h of preview.compare ?? []) for (const id of [h.from, h.to]) if (id && !order.has(id)) order.set(id, '·');
  let hopNote: RouteLabels['hopNote'] = null;
  const focus = preview.focusHop ?? null;
  const hop = focus !== null ? preview.hops[focus] : undefined;
  const a = hop?.from ? world.get(hop.from) : undefined,
    b = hop?.to ? world.get(hop.to) : undefined;
  if (hop && a && b && preview.focusNote)
    hopNote = {
      at: a
        .clone()
        .add(b)
        .multiplyScalar(0.5)
        .setY(Math.max(a.y, b.y) + 0.45),
      text: preview.focusNote,
      state: hop.state,
    };
  return { order, hopNote };
}

/** World points the camera frames for a route (null: the whole scene). Kept per `frame` object, so stepping hops does not move the camera. */
export function framePoints(frame: PathPreview['frame'], world: Map<string, Vector3>): Vector3[] | null {
  const pts = frame ? frame.nodes.map((id) => world.get(id)).filter((p): p is Vector3 => !!p) : [];
  return pts.length ? pts : null;
}
