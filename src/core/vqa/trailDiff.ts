import type { Links, TrailStep } from './item.ts';
import { append } from '../arrays.ts';

/**
 * What a reviewer changed in a generated trail, for showing next to the generator's version
 * (FoMER's verifiers added and removed steps; the dataset should say which they were).
 */

export interface Segment {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/**
 * Words, numbers with their decimal point or apostrophe (`0.70`, `Bedroom's`, `L-shaped`), single
 * punctuation marks and whitespace runs. Punctuation stands alone so that "room." → "room," shows
 * as a changed comma rather than a changed word.
 */
const TOKEN = /\s+|[\p{L}\p{N}]+(?:['’.,-][\p{L}\p{N}]+)*|[^\s]/gu;

/** Above this many token pairs the LCS table is not built: the differing middle shows as replaced whole. */
const MAX_CELLS = 4_000_000;

/**
 * Word-level difference of two texts by longest common subsequence. Joining the `same` and
 * `removed` segments gives `a` back; joining `same` and `added` gives `b`. Within a changed
 * stretch all removed words come first, then all added ones, and a lone space between two
 * changes is folded into them, so "the cat" → "a dog" reads as one replacement.
 */
export function textDiff(a: string, b: string): Segment[] {
  const x = a.match(TOKEN) ?? [],
    y = b.match(TOKEN) ?? [];
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let endX = x.length,
    endY = y.length;
  while (endX > start && endY > start && x[endX - 1] === y[endY - 1]) {
    endX--;
    endY--;
  }

  type Op = { kind: Segment['kind'] | 'both'; text: string };
  const ops: Op[] = x.slice(0, start).map((text) => ({ kind: 'same', text }));
  const mx = x.slice(start, endX),
    my = y.slice(start, endY);
  if (mx.length * my.length > MAX_CELLS) {
    append(
      append(
        ops,
        mx.map((text) => ({ kind: 'removed' as const, text })),
      ),
      my.map((text) => ({ kind: 'added' as const, text })),
    );
  } else {
    append(ops, lcsOps(mx, my));
  }
  append(
    ops,
    x.slice(endX).map((text) => ({ kind: 'same' as const, text })),
  );

  for (let k = 1; k < ops.length - 1; k++) {
    if (ops[k]!.kind === 'same' && /^\s+$/.test(ops[k]!.text) && ops[k - 1]!.kind !== 'same' && ops[k + 1]!.kind !== 'same') ops[k]!.kind = 'both';
  }
  const out: Segment[] = [];
  let removed = '',
    added = '';
  const flush = () => {
    if (removed) out.push({ kind: 'removed', text: removed });
    if (added) out.push({ kind: 'added', text: added });
    removed = added = '';
  };
  for (const op of ops) {
    if (op.kind === 'same') {
      flush();
      const last = out[out.length - 1];
      if (last?.kind === 'same') last.text += op.text;
      else out.push({ kind: 'same', text: op.text });
    } else {
      if (op.kind !== 'added') removed += op.text;
      if (op.kind !== 'removed') added += op.text;
    }
  }
  flush();
  return out;
}

function lcsOps(x: readonly string[], y: readonly string[]): { kind: Segment['kind']; text: string }[] {
  const n = x.length,
    m = y.length,
    w = m + 1;
  // suffix table: len[i*w + j] = LCS length of x[i..] and y[j..]
  const len = new Int32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      len[i * w + j] = x[i] === y[j] ? len[(i + 1) * w + j + 1]! + 1 : Math.max(len[(i + 1) * w + j]!, len[i * w + j + 1]!);
    }
  }
  const ops: { kind: Segment['kind']; text: string }[] = [];
  let i = 0,
    j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      ops.push({ kind: 'same', text: x[i]! });
      i++;
      j++;
    } else if (len[(i + 1) * w + j]! >= len[i * w + j + 1]!) ops.push({ kind: 'removed', text: x[i++]! });
    else ops.push({ kind: 'added', text: y[j++]! });
  }
  while (i < n) ops.push({ kind: 'removed', text: x[i++]! });
  while (j < m) ops.push({ kind: 'added', text: y[j++]! });
  return ops;
}

export type StepDiff =
  | { kind: 'unchanged'; step: TrailStep; generatedIndex: number; currentIndex: number; moved: boolean }
  | {
      kind: 'changed';
      step: TrailStep;
      was: TrailStep;
      generatedIndex: number;
      currentIndex: number;
      moved: boolean;
      title: Segment[];
      text: Segment[];
      /** Set when the step's kind changed. */
      kindChange?: { from: TrailStep['kind']; to: TrailStep['kind'] };
      linksAdded: Links;
      linksRemoved: Links;
    }
  | { kind: 'added'; step: TrailStep; currentIndex: number }
  | { kind: 'removed'; step: TrailStep; generatedIndex: number };

/**
 * Step-by-step difference between the generator's trail and the current one, in reading order:
 * the current steps, with each removed step placed where it stood in the generated trail.
 * Steps are matched by id (editing keeps ids). Only when no id matches at all are the steps a
 * person did not write matched by position (a trail whose ids were all reassigned still lines
 * up); otherwise a step with a new id is new, e.g. the second half of a split. `moved` marks the
 * fewest matched steps whose reordering explains the new order (those outside a longest run in
 * the old order).
 */
export function trailDiff(generated: readonly TrailStep[], current: readonly TrailStep[]): StepDiff[] {
  const genIndexById = new Map<string, number>();
  generated.forEach((s, i) => {
    if (!genIndexById.has(s.id)) genIndexById.set(s.id, i);
  });
  const matchOf = new Array<number | undefined>(current.length);
  const taken = new Set<number>();
  current.forEach((s, i) => {
    const g = genIndexById.get(s.id);
    if (g !== undefined && !taken.has(g)) {
      matchOf[i] = g;
      taken.add(g);
    }
  });
  // A written step is one a person added, so it never stands for a generated step it happens to replace.
  if (taken.size === 0) {
    current.forEach((s, i) => {
      if (s.origin !== 'written' && i < generated.length) {
        matchOf[i] = i;
        taken.add(i);
      }
    });
  }

  const matched = current.map((_, i) => i).filter((i) => matchOf[i] !== undefined);
  const inOrder = longestIncreasing(matched.map((i) => matchOf[i]!));
  const stay = new Set(inOrder.map((k) => matched[k]!));

  const removed = generated.map((_, g) => g).filter((g) => !taken.has(g));
  const out: StepDiff[] = [];
  let r = 0;
  const emitRemovedBefore = (limit: number) => {
    while (r < removed.length && removed[r]! < limit) {
      const g = removed[r++]!;
      out.push({ kind: 'removed', step: generated[g]!, generatedIndex: g });
    }
  };
  current.forEach((step, i) => {
    const g = matchOf[i];
    if (g === undefined) {
      out.push({ kind: 'added', step, currentIndex: i });
      return;
    }
    const moved = !stay.has(i);
    if (!moved) emitRemovedBefore(g);
    out.push(compareSteps(generated[g]!, step, g, i, moved));
  });
  emitRemovedBefore(Infinity);
  return out;
}

function compareSteps(was: TrailStep, step: TrailStep, generatedIndex: number, currentIndex: number, moved: boolean): StepDiff {
  const linksAdded = diffLinks(step.links, was.links),
    linksRemoved = diffLinks(was.links, step.links);
  const linksChanged = Object.values(linksAdded).some((l) => l.length) || Object.values(linksRemoved).some((l) => l.length);
  if (was.title === step.title && was.text === step.text && was.kind === step.kind && !linksChanged) {
    return { kind: 'unchanged', step, generatedIndex, currentIndex, moved };
  }
  return {
    kind: 'changed',
    step,
    was,
    generatedIndex,
    currentIndex,
    moved,
    title: textDiff(was.title, step.title),
    text: textDiff(was.text, step.text),
    ...(was.kind !== step.kind ? { kindChange: { from: was.kind, to: step.kind } } : {}),
    linksAdded,
    linksRemoved,
  };
}

/** Links in `a` that are not in `b`, per kind. */
function diffLinks(a: Links, b: Links): Links {
  const minus = (x: string[], y: string[]) => x.filter((id) => !y.includes(id));
  return { viewpoints: minus(a.viewpoints, b.viewpoints), nodes: minus(a.nodes, b.nodes), edges: minus(a.edges, b.edges), marks: minus(a.marks, b.marks) };
}

/** Positions (into `seq`) of one longest strictly increasing subsequence; O(n log n). */
function longestIncreasing(seq: readonly number[]): number[] {
  const tails: number[] = [],
    prev = new Array<number>(seq.length).fill(-1);
  seq.forEach((v, i) => {
    let lo = 0,
      hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]!]! < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  });
  const out: number[] = [];
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k !== -1; k = prev[k]!) out.push(k);
  return out.reverse();
}

export interface TrailDiffSummary {
  added: number;
  removed: number;
  changed: number;
  unchanged: number;
  moved: number;
}

/** Counts for a one-line summary ("2 steps added, 1 removed, 1 changed"). */
export function summariseTrailDiff(diff: readonly StepDiff[]): TrailDiffSummary {
  const s: TrailDiffSummary = { added: 0, removed: 0, changed: 0, unchanged: 0, moved: 0 };
  for (const d of diff) {
    s[d.kind]++;
    if ((d.kind === 'changed' || d.kind === 'unchanged') && d.moved) s.moved++;
  }
  return s;
}
