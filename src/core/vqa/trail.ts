import type { Links, TrailStep } from './item.ts';

/**
 * Editing a reasoning trail. Every function returns a new array and leaves its input alone; when
 * the edit changes nothing (an index out of range, a link already there, a split at the very
 * start or end) it returns the SAME array, so a caller can skip an empty undo step by identity.
 *
 * Origins record who is responsible for a step's content, which is what a reviewer of a generated
 * trail needs to see: a step a person adds is `written`; touching a generated step makes it
 * `edited`; a written step stays written however often its author changes it.
 */

export { textDiff, trailDiff, summariseTrailDiff, type Segment, type StepDiff } from './trailDiff.ts';

export type LinkKind = keyof Links;

export const emptyLinks = (): Links => ({ viewpoints: [], nodes: [], edges: [], marks: [] });

/** `s<n>` one above the highest `s<number>` id in use, so ids are never reused within a trail. */
export function nextStepId(trail: readonly TrailStep[]): string {
  let max = 0;
  for (const s of trail) {
    const m = /^s(\d+)$/.exec(s.id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `s${max + 1}`;
}

const inRange = (trail: readonly TrailStep[], i: number) => Number.isInteger(i) && i >= 0 && i < trail.length;

/** A generated step a person changed becomes `edited`; written and edited steps keep their origin. */
const touched = (origin: TrailStep['origin']): TrailStep['origin'] => (origin === 'generated' ? 'edited' : origin);

/** Insert a new written step after `after` (-1 puts it first). */
export function addStep(trail: readonly TrailStep[], after: number, init: Partial<Pick<TrailStep, 'title' | 'text' | 'kind' | 'links'>> = {}): TrailStep[] {
  if (!Number.isInteger(after) || after < -1 || after >= trail.length) return trail as TrailStep[];
  const step: TrailStep = {
    id: nextStepId(trail),
    title: init.title ?? '',
    text: init.text ?? '',
    kind: init.kind ?? 'spatial',
    links: copyLinks(init.links ?? emptyLinks()),
    origin: 'written',
  };
  return [...trail.slice(0, after + 1), step, ...trail.slice(after + 1)];
}

export function removeStep(trail: readonly TrailStep[], index: number): TrailStep[] {
  if (!inRange(trail, index)) return trail as TrailStep[];
  return trail.filter((_, i) => i !== index);
}

/** Move the step at `from` so that it ends up at index `to`. Reordering is not a content change: origins stay. */
export function moveStep(trail: readonly TrailStep[], from: number, to: number): TrailStep[] {
  if (!inRange(trail, from) || !inRange(trail, to) || from === to) return trail as TrailStep[];
  const out = [...trail];
  const [step] = out.splice(from, 1);
  out.splice(to, 0, step!);
  return out;
}

/** Change a step's title, text or kind. Setting a field to the value it has is no change. */
export function editStep(trail: readonly TrailStep[], index: number, patch: Partial<Pick<TrailStep, 'title' | 'text' | 'kind'>>): TrailStep[] {
  if (!inRange(trail, index)) return trail as TrailStep[];
  const step = trail[index]!;
  const changed = (Object.keys(patch) as (keyof typeof patch)[]).some((k) => patch[k] !== undefined && patch[k] !== step[k]);
  if (!changed) return trail as TrailStep[];
  const next: TrailStep = { ...step, ...definedOnly(patch), origin: touched(step.origin) };
  return trail.map((s, i) => (i === index ? next : s));
}

/**
 * Split a step's text at a character offset into two steps. The first keeps the id and title;
 * the second is new with an empty title (only the person splitting knows what it establishes).
 * Both keep the links, since either half may rest on them. The first half's origin follows the
 * usual rule; the second half is `written` when cut from a written step, else `edited`: its words
 * still come from the generator. Whitespace at the cut is dropped; a cut leaving one half empty
 * is no split.
 */
export function splitStep(trail: readonly TrailStep[], index: number, offset: number): TrailStep[] {
  if (!inRange(trail, index)) return trail as TrailStep[];
  const step = trail[index]!;
  if (!Number.isInteger(offset) || offset <= 0 || offset >= step.text.length) return trail as TrailStep[];
  const head = step.text.slice(0, offset).trimEnd();
  const tail = step.text.slice(offset).trimStart();
  if (head.trim() === '' || tail.trim() === '') return trail as TrailStep[];
  const first: TrailStep = { ...step, text: head, links: copyLinks(step.links), origin: touched(step.origin) };
  const second: TrailStep = {
    id: nextStepId(trail),
    title: '',
    text: tail,
    kind: step.kind,
    links: copyLinks(step.links),
    origin: step.origin === 'written' ? 'written' : 'edited',
  };
  return [...trail.slice(0, index), first, second, ...trail.slice(index + 1)];
}

/**
 * Merge the step at `index` with the one after it: texts joined by a space, the first's id and
 * kind, the first non-empty title, the union of their links. The result is `written` only when
 * both halves were; otherwise it is `edited`.
 */
export function mergeSteps(trail: readonly TrailStep[], index: number): TrailStep[] {
  if (!inRange(trail, index) || !inRange(trail, index + 1)) return trail as TrailStep[];
  const a = trail[index]!,
    b = trail[index + 1]!;
  const merged: TrailStep = {
    id: a.id,
    title: a.title.trim() !== '' ? a.title : b.title,
    text: [a.text.trim(), b.text.trim()].filter((t) => t !== '').join(' '),
    kind: a.kind,
    links: unionLinks(a.links, b.links),
    origin: a.origin === 'written' && b.origin === 'written' ? 'written' : 'edited',
  };
  return [...trail.slice(0, index), merged, ...trail.slice(index + 2)];
}

/** Link a step to a viewpoint, node, edge or mark; linking counts as changing the step. */
export function linkStep(trail: readonly TrailStep[], index: number, kind: LinkKind, id: string): TrailStep[] {
  if (!inRange(trail, index) || trail[index]!.links[kind].includes(id)) return trail as TrailStep[];
  const step = trail[index]!;
  const next: TrailStep = { ...step, links: { ...step.links, [kind]: [...step.links[kind], id] }, origin: touched(step.origin) };
  return trail.map((s, i) => (i === index ? next : s));
}

export function unlinkStep(trail: readonly TrailStep[], index: number, kind: LinkKind, id: string): TrailStep[] {
  if (!inRange(trail, index) || !trail[index]!.links[kind].includes(id)) return trail as TrailStep[];
  const step = trail[index]!;
  const next: TrailStep = { ...step, links: { ...step.links, [kind]: step.links[kind].filter((x) => x !== id) }, origin: touched(step.origin) };
  return trail.map((s, i) => (i === index ? next : s));
}

/**
 * Drop links to anything no longer there (a deleted mark or viewpoint, a node removed from the
 * graph), e.g. after deleting a mark. `keep` says which ids of each kind still exist. Not an
 * edit of the step's reasoning, so origins stay.
 */
export function pruneLinks(trail: readonly TrailStep[], keep: Partial<Record<LinkKind, ReadonlySet<string>>>): TrailStep[] {
  let changed = false;
  const out = trail.map((s) => {
    const links = copyLinks(s.links);
    for (const kind of Object.keys(keep) as LinkKind[]) {
      const alive = keep[kind]!;
      links[kind] = links[kind].filter((id) => alive.has(id));
      if (links[kind].length !== s.links[kind].length) changed = true;
    }
    return links.viewpoints.length + links.nodes.length + links.edges.length + links.marks.length === totalLinks(s.links) ? s : { ...s, links };
  });
  return changed ? out : (trail as TrailStep[]);
}

/** A deep copy, e.g. for an item's `generated` version, which must not share arrays with the live trail. */
export function cloneTrail(trail: readonly TrailStep[]): TrailStep[] {
  return trail.map((s) => ({ ...s, links: copyLinks(s.links) }));
}

const totalLinks = (l: Links) => l.viewpoints.length + l.nodes.length + l.edges.length + l.marks.length;

function copyLinks(l: Links): Links {
  return { viewpoints: [...l.viewpoints], nodes: [...l.nodes], edges: [...l.edges], marks: [...l.marks] };
}

function unionLinks(a: Links, b: Links): Links {
  const u = (x: string[], y: string[]) => [...new Set([...x, ...y])];
  return { viewpoints: u(a.viewpoints, b.viewpoints), nodes: u(a.nodes, b.nodes), edges: u(a.edges, b.edges), marks: u(a.marks, b.marks) };
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
