import type { DeriveMethod } from './types.ts';
import { normaliseText, wordHits } from './normalise.ts';
import { pyLen } from './pyText.ts';

/** A node name found in the question. */
interface NameHit {
  start: number;
  end: number;
  id: string;
  /** The normalised name. */
  name: string;
  /** Length of the normalised name in code points. */
  len: number;
}

export interface Endpoints {
  src: string;
  tgt: string;
  method: DeriveMethod;
}

/** A scene's node names, normalised, in node order; nodes whose name normalises to "" are left out. */
export type NamedNodes = readonly { id: string; name: string; len: number }[];

const START_WEIGHT = 0.08;
const NEAREST_WEIGHT = 0.05;

/**
 * §2 step 3: the released scorer does not read the question's node references; it guesses
 * source and target from the question text. Null when no node name occurs in it
 * (the record then fails with `no_node_name_hit_in_question`).
 *
 * Where §2 is silent, these choices (the straightforward Python reading):
 * - Every occurrence of every name is a hit (`re.finditer`); hits are ordered by position,
 *   longer first on equal starts, then node order (a stable sort on `(start, -length)`).
 * - "from" is the first whole word `from`; "to" the first whole word `to` after it.
 *   Start candidates have their centre strictly between the end of "from" and the start of "to";
 *   end candidates strictly after the start of "to". `max()` keeps the first best on ties.
 * - Names that normalise to "" are never hits (one release node, in MP3D00030, has an empty
 *   name; were it a hit, it would match at every word boundary and be every question's start).
 * - The "same name → best different end" rule also applies in the nearest-match fallback. §2
 *   states it after the from/to scoring; applied to both branches, 9.8% of the 326 questions of
 *   the 30 shared scenes get endpoints other than their node references (6.1% not counting
 *   questions with no hit), against 14.1% when applied to the from/to branch only. §2 reports
 *   "roughly 7%" on the full release, which the first reading fits.
 * - "from" without a "to" after it, and a fallback with no hit after "from", use first/last.
 */
export function guessEndpoints(question: string, names: NamedNodes): Endpoints | null {
  const q = normaliseText(question);
  const hits: NameHit[] = [];
  for (const n of names) for (const h of wordHits(q, n.name)) hits.push({ ...h, id: n.id, name: n.name, len: n.len });
  if (hits.length === 0) return null;
  hits.sort((x, y) => x.start - y.start || y.len - x.len);

  const fromHit = wordHits(q, 'from', true)[0];
  const toHit = fromHit ? wordHits(q, 'to').find((h) => h.start >= fromHit.end) : undefined;
  if (fromHit && toHit) {
    const fromEnd = fromHit.end, toStart = toHit.start;
    const starts = hits.filter((h) => centre(h) > fromEnd && centre(h) < toStart);
    const ends = hits.filter((h) => centre(h) > toStart);
    if (starts.length && ends.length) {
      const s = best(starts, fromEnd, START_WEIGHT);
      const e = differentEnd(s, ends, toStart, START_WEIGHT);
      return { src: s.id, tgt: e.id, method: 'from_to' };
    }
    const after = hits.filter((h) => centre(h) > fromEnd);
    if (after.length) {
      const s = best(after, fromEnd, NEAREST_WEIGHT);
      const e = differentEnd(s, after, toStart, NEAREST_WEIGHT);
      return { src: s.id, tgt: e.id, method: 'from_to_nearest' };
    }
  }
  return { src: hits[0]!.id, tgt: hits[hits.length - 1]!.id, method: 'first_last' };
}

function centre(h: NameHit): number {
  return (h.start + h.end) / 2;
}

/** `max(cands, key=lambda h: -abs(centre(h) - anchor) + weight * len(h.name))`: the first best wins. */
function best(cands: readonly NameHit[], anchor: number, weight: number): NameHit {
  let top = cands[0]!, topScore = -Infinity;
  for (const h of cands) {
    const score = -Math.abs(centre(h) - anchor) + weight * h.len;
    if (score > topScore) { top = h; topScore = score; }
  }
  return top;
}

/** The best end; when it has the start's name and another candidate has a different name, the best of those. */
function differentEnd(start: NameHit, cands: readonly NameHit[], anchor: number, weight: number): NameHit {
  const e = best(cands, anchor, weight);
  if (e.name !== start.name) return e;
  const others = cands.filter((h) => h.name !== start.name);
  return others.length ? best(others, anchor, weight) : e;
}

/** The scene's names as step 3 searches them. */
export function namedNodes(nodes: readonly { id: string; name: string }[]): NamedNodes {
  const out: { id: string; name: string; len: number }[] = [];
  for (const n of nodes) {
    const name = normaliseText(n.name);
    if (name) out.push({ id: n.id, name, len: pyLen(name) });
  }
  return out;
}
