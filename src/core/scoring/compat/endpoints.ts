import type { DeriveMethod, RecordFailReason } from './types.ts';
import { normaliseText, wordHits } from './normalise.ts';
import { pyStrip } from './pyText.ts';

/** A node name found in the question (positions in code points). */
interface NameHit {
  /** The raw node name: the released scorer compares hits by it, not by the normalised form. */
  name: string;
  id: string;
  start: number;
  end: number;
  /** Code points of the normalised name. */
  length: number;
  center: number;
}

export type Endpoints =
  | { ok: true; src_name: string; tgt_name: string; src_id: string; tgt_id: string; method: DeriveMethod }
  | { ok: false; error: Extract<RecordFailReason, 'empty_question' | 'no_node_name_hit_in_question' | 'no_hits_after_from'> };

/** A scene's distinct raw node names in first-appearance order, normalised, with the id the name maps to (the last node's). */
export type NamedNodes = readonly { name: string; norm: string; normLen: number; id: string }[];

/**
 * §2 step 3: the released scorer does not read the question's node references; it guesses
 * source and target from the question text (`derive_src_tgt_by_reverse_match`):
 * - A question that is not a string or is blank fails `empty_question`.
 * - Hits: for each distinct raw node name (first-appearance order) whose normalised form is not
 *   empty, every whole-word occurrence in the normalised question.
 * - No "from", or no "to" after it: the first and the last hit by (start, longer first), the
 *   one-before-last when both carry the same name (`fallback_first_last`).
 * - Else start candidates are centred in [end of "from", start of "to"], end candidates at or
 *   after the start of "to"; start = max(−|centre − end of from| + 0.08·len), end likewise around
 *   "to"; when they carry the same name, the best end with another name (`from_to_partition`).
 * - Else, of the hits centred at or after the end of "from" (none: `no_hits_after_from`), the
 *   closest to each anchor with weight 0.05, the end again taken with another name if it can
 *   (`degraded_closest`).
 * `max` and `min` keep the first best; sorts are stable, so ties keep hit order.
 */
export function guessEndpoints(question: string | null, names: NamedNodes): Endpoints {
  if (question === null || pyStrip(question) === '') return { ok: false, error: 'empty_question' };
  const q = normaliseText(question);
  const hits: NameHit[] = [];
  for (const n of names) {
    if (!n.norm) continue;
    for (const h of wordHits(q, n.norm)) hits.push({ name: n.name, id: n.id, start: h.start, end: h.end, length: n.normLen, center: (h.start + h.end) / 2 });
  }
  if (hits.length === 0) return { ok: false, error: 'no_node_name_hit_in_question' };
  const found = (s: NameHit, e: NameHit, method: DeriveMethod): Endpoints => ({
    ok: true,
    src_name: s.name,
    tgt_name: e.name,
    src_id: s.id,
    tgt_id: e.id,
    method,
  });

  const span = fromTo(q);
  if (!span) {
    const sorted = [...hits].sort((x, y) => x.start - y.start || y.length - x.length);
    const s = sorted[0]!;
    let e = sorted[sorted.length - 1]!;
    if (s.name === e.name && sorted.length >= 2) e = sorted[sorted.length - 2]!;
    return found(s, e, 'fallback_first_last');
  }
  const [fromEnd, toStart] = span;
  const starts = hits.filter((h) => fromEnd <= h.center && h.center <= toStart);
  const ends = hits.filter((h) => h.center >= toStart);
  if (starts.length && ends.length) {
    const s = best(starts, (h) => -Math.abs(h.center - fromEnd) + 0.08 * h.length);
    const endScore = (h: NameHit) => -Math.abs(h.center - toStart) + 0.08 * h.length;
    let e = best(ends, endScore);
    if (s.name === e.name && ends.length > 1) e = bestOtherName(ends, s.name, endScore) ?? e;
    return found(s, e, 'from_to_partition');
  }
  const after = hits.filter((h) => h.center >= fromEnd);
  if (after.length === 0) return { ok: false, error: 'no_hits_after_from' };
  // min(key) over `abs(c - anchor) - 0.05·len` is max over its negation, the same floats.
  const s = best(after, (h) => -(Math.abs(h.center - fromEnd) - 0.05 * h.length));
  const endScore = (h: NameHit) => -(Math.abs(h.center - toStart) - 0.05 * h.length);
  let e = best(after, endScore);
  if (s.name === e.name) e = bestOtherName(after, s.name, endScore) ?? e;
  return found(s, e, 'degraded_closest');
}

/** End of the first whole word "from" and start of the first whole word "to" after it, in code points. */
function fromTo(q: string): [number, number] | null {
  const from = wordHits(q, 'from', true)[0];
  if (!from) return null;
  // Searching the rest of the text (`qn[from_end:]`) finds what searching on from there finds:
  // the character after "from" is not a word character, so no boundary differs.
  const to = wordHits(q, 'to').find((h) => h.start >= from.end);
  return to ? [from.end, to.start] : null;
}

/** The first candidate with the highest score. */
function best(cands: readonly NameHit[], score: (h: NameHit) => number): NameHit {
  let top = cands[0]!,
    topScore = score(top);
  for (let i = 1; i < cands.length; i++) {
    const s = score(cands[i]!);
    if (s > topScore) {
      top = cands[i]!;
      topScore = s;
    }
  }
  return top;
}

/** The first of a stable best-first sort whose name differs: the best other-named candidate, earliest on ties. */
function bestOtherName(cands: readonly NameHit[], name: string, score: (h: NameHit) => number): NameHit | null {
  const others = cands.filter((h) => h.name !== name);
  return others.length ? best(others, score) : null;
}
