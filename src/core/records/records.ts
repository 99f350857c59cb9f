import { completed } from '../steps.ts';
import type { Project, Scene } from '../project.ts';
import type { QaItem } from '../vqa/item.ts';
import { adjudicationsOf, authorOf } from '../labelVotes.ts';
import { keyOf, parseKey, RECORD_KIND_NAMES, RECORD_KINDS, scopeOf } from './keys.ts';
import { append } from '../arrays.ts';

/**
 * A project as records: each scene head, node, edge, annotator's label, adjudication, QA item,
 * review, profile… is one record under its key (keys.ts), with its place among its siblings
 * (`order`). Records are what the browser stores, what a tab tells another it changed, what undo
 * restores and what CouchDB replicates; the project in memory is assembled from them (assemble.ts).
 */
export interface Rec {
  key: string;
  value: unknown;
  order: number;
}

/** One record's change: absent before (added), absent after (removed), or both (changed). */
export interface Change {
  key: string;
  before: Rec | undefined;
  after: Rec | undefined;
}

/** A scene's head: everything of the scene that is not its id, graph or labels. */
export type SceneHead = Omit<Scene, 'id' | 'graph' | 'labels' | 'votes' | 'adjudications'>;
/** A QA item without its reviews and adjudication (each reviewer's verdict is its own record). */
export type ItemHead = Omit<QaItem, 'reviews' | 'adjudication'>;
/** The project's own fields: its name and anything not held by other records. */
export type ProjectHead = Omit<Project, 'profiles' | 'scenes' | 'qa'>;

/** The records of the project itself: its head, taxonomy and profiles. */
export function topRecords(project: Project): Rec[] {
  const { profiles, scenes: _scenes, qa, ...head } = project;
  return [
    { key: keyOf.project(), value: head satisfies ProjectHead, order: 0 },
    { key: keyOf.taxonomy(), value: qa.taxonomy, order: 0 },
    ...profiles.map((p, i) => ({ key: keyOf.profile(p.name), value: p, order: i })),
  ];
}

/**
 * A scene's records but its head (the one whose order is the scene's position), kept per scene
 * object: scenes are immutable, and an import makes them once to check they can be stored (while
 * it still reads files) and again to store them.
 */
const sceneBodies = new WeakMap<Scene, { head: Rec; body: readonly Rec[] }>();

/** The records of one scene, at position `index` among the project's scenes. */
export function sceneRecords(scene: Scene, index: number): Rec[] {
  let known = sceneBodies.get(scene);
  if (!known) sceneBodies.set(scene, (known = sceneRecordsAt0(scene)));
  return [known.head.order === index ? known.head : { ...known.head, order: index }, ...known.body];
}

function sceneRecordsAt0(scene: Scene): { head: Rec; body: Rec[] } {
  const { id, graph, labels: _labels, votes: _votes, adjudications: _adjudications, ...head } = scene;
  const out: Rec[] = [];
  graph.nodes.forEach((n, i) => out.push({ key: keyOf.node(id, n.id), value: n, order: i }));
  graph.edges.forEach((e, i) => out.push({ key: keyOf.edge(id, e.id), value: e, order: i }));
  if (scene.votes) {
    for (const [agent, perSeg] of Object.entries(scene.votes)) {
      let i = 0;
      for (const [seg, votes] of Object.entries(perSeg)) {
        for (const [author, label] of Object.entries(votes)) out.push({ key: keyOf.label(id, agent, seg, author), value: label, order: i });
        i++;
      }
    }
  } else {
    // One vote per label, by its own annotator (what `votesOf` would derive): records straight from
    // the labels, without building the vote table (a 1,000-scene import has ~140,000 labels).
    for (const [agent, table] of Object.entries(scene.labels)) {
      let i = 0;
      for (const seg in table) {
        const label = table[seg]!;
        out.push({ key: keyOf.label(id, agent, seg, authorOf(label)), value: label, order: i++ });
      }
    }
  }
  for (const [agent, perSeg] of Object.entries(adjudicationsOf(scene))) {
    Object.entries(perSeg).forEach(([seg, decision], i) => out.push({ key: keyOf.adjudication(id, agent, seg), value: decision, order: i }));
  }
  return { head: { key: keyOf.scene(id), value: head satisfies SceneHead, order: 0 }, body: out };
}

/** The records of one QA item, at position `index` among the project's items. */
export function itemRecords(item: QaItem, index: number): Rec[] {
  const { reviews, adjudication, ...head } = item;
  const out: Rec[] = [{ key: keyOf.qaitem(item.id), value: head satisfies ItemHead, order: index }];
  reviews.forEach((r, i) => out.push({ key: keyOf.review(item.id, r.reviewer), value: r, order: i }));
  if (adjudication) out.push({ key: keyOf.qaadjudication(item.id), value: adjudication, order: 0 });
  return out;
}

/** Every record of a project. */
const recordsOfProject = new WeakMap<Project, readonly Rec[]>();

/** A project's records (kept per project: a project is never changed in place, and an import checks and stores the same one). */
export function projectRecords(project: Project): readonly Rec[] {
  const known = recordsOfProject.get(project);
  if (known) return known;
  const out = topRecords(project);
  project.scenes.forEach((s, i) => {
    for (const r of sceneRecords(s, i)) out.push(r);
  });
  project.qa.items.forEach((it, i) => {
    for (const r of itemRecords(it, i)) out.push(r);
  });
  recordsOfProject.set(project, out);
  return out;
}

/** The current records of one scope (keys.ts `scopeOf`) of a project. */
export function scopeRecords(project: Project, scope: string): Rec[] {
  if (scope === 'top') return topRecords(project);
  const [kind, id] = [scope.slice(0, scope.indexOf(':')), scope.slice(scope.indexOf(':') + 1)];
  if (kind === 'scene') {
    const i = project.scenes.findIndex((s) => s.id === id);
    return i < 0 ? [] : sceneRecords(project.scenes[i]!, i);
  }
  const i = project.qa.items.findIndex((it) => it.id === id);
  return i < 0 ? [] : itemRecords(project.qa.items[i]!, i);
}

/**
 * Whether two record values are the same: by reference first (unchanged parts of an immutable
 * project are shared), then structurally. Iterative, so no stored value can overflow the stack.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const kx = Object.keys(x),
      ky = Object.keys(y);
    if (kx.length !== ky.length) return false;
    for (const k of kx) {
      if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
      stack.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]]);
    }
  }
  return true;
}

/**
 * Records whose `order` is only their place in a table other people's records share: a label's
 * place among its agent's segments, a review's among an item's. That place moves when a node,
 * segment or review elsewhere comes or goes; rewriting the record for it would rewrite another
 * annotator's work (which the team server refuses) for no change of content. Such a record counts
 * as changed only when its value does; it keeps the order it was written with (assembly breaks
 * ties by key).
 */
const PLACE_ONLY = new RegExp(`^(${RECORD_KIND_NAMES.filter((k) => 'placeOnly' in RECORD_KINDS[k]).join('|')})/`);

export const sameRec = (a: Rec | undefined, b: Rec | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && (a.order === b.order || PLACE_ONLY.test(a.key)) && sameValue(a.value, b.value));

/** The changes that turn one set of records into another. */
export function diffRecords(before: readonly Rec[], after: readonly Rec[]): Change[] {
  const old = new Map(before.map((r) => [r.key, r]));
  const out: Change[] = [];
  for (const r of after) {
    const o = old.get(r.key);
    old.delete(r.key);
    if (!sameRec(o, r)) out.push({ key: r.key, before: o, after: r });
  }
  for (const o of old.values()) out.push({ key: o.key, before: o, after: undefined });
  return out;
}

/**
 * The record changes between two versions of a project. Parts the two share by reference are
 * skipped, so a label decision costs the records of its scene, whatever the project's size.
 */
export function diffProjects(a: Project | null, b: Project | null): Change[] {
  return completed(diffProjectsSteps(a, b));
}

/**
 * The last diff made from each project version (to the version it was diffed with). An edit is
 * diffed once: the undo history diffs it, and storage, writing the same step, finds the changes
 * here instead of comparing the two versions again. Projects are never changed in place, so a
 * pair of versions always has the same changes; callers never change the list they get.
 */
const lastDiff = new WeakMap<Project, { to: Project; changes: Change[] }>();

/** `diffProjects` as steps (a `yield` every 500 scenes or items looked at), for a page to run in slices. */
export function* diffProjectsSteps(a: Project | null, b: Project | null): Generator<void, Change[], void> {
  if (a === b) return [];
  if (!a || !b) return diffRecords(a ? projectRecords(a) : [], b ? projectRecords(b) : []);
  const known = lastDiff.get(a);
  if (known && known.to === b) return known.changes;
  // Frozen: the history, the lead check and storage hold the same list.
  const changes = Object.freeze(yield* diffVersions(a, b)) as Change[];
  lastDiff.set(a, { to: b, changes });
  return changes;
}

function* diffVersions(a: Project, b: Project): Generator<void, Change[], void> {
  const out: Change[] = [];
  const { profiles: pa, scenes: sa, qa: qa_a, ...ha } = a;
  const { profiles: pb, scenes: sb, qa: qa_b, ...hb } = b;
  if (pa !== pb || qa_a.taxonomy !== qa_b.taxonomy || !sameValue(ha, hb)) append(out, diffRecords(topRecords(a), topRecords(b)));
  if (sa !== sb) yield* diffList(sa, sb, (s) => s.id, sceneRecords, out);
  if (qa_a.items !== qa_b.items) yield* diffList(qa_a.items, qa_b.items, (it) => it.id, itemRecords, out);
  return out;
}

function* diffList<T>(
  before: readonly T[],
  after: readonly T[],
  id: (t: T) => string,
  records: (t: T, i: number) => Rec[],
  out: Change[],
): Generator<void, void, void> {
  // The common case (an edit of some items in place): the same ids at the same places, so the
  // unchanged items are passed over by reference without indexing the whole list.
  if (before.length === after.length && after.every((t, i) => t === before[i] || id(t) === id(before[i]!))) {
    for (const [i, t] of after.entries()) {
      if (i % 500 === 499) yield;
      if (t !== before[i]) for (const c of diffRecords(records(before[i]!, i), records(t, i))) out.push(c);
    }
    return;
  }
  const old = new Map(before.map((t, i) => [id(t), { t, i }]));
  for (const [i, t] of after.entries()) {
    if (i % 500 === 499) yield;
    const o = old.get(id(t));
    old.delete(id(t));
    if (o && o.t === t && o.i === i) continue;
    for (const c of diffRecords(o ? records(o.t, o.i) : [], records(t, i))) out.push(c);
  }
  for (const { t, i } of old.values()) for (const c of diffRecords(records(t, i), [])) out.push(c);
}

/** The scopes a set of changes touches. */
export function scopesOf(keys: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const k of keys) {
    const p = parseKey(k);
    if (p) out.add(scopeOf(p));
  }
  return out;
}
