import { completed } from '../steps.ts';
import { z } from 'zod';
import { AgentProfileSchema, type AgentProfile } from '../agents.ts';
import { NavEdgeSchema, NavNodeSchema } from '../graph.ts';
import { LabelSchema, type Label } from '../labels.ts';
import { authorOf, LabelAdjudicationSchema, labelsInForce, type AdjudicationTable, type LabelAdjudication, type VoteTable } from '../labelVotes.ts';
import { pathPartProblem } from '../pathNames.ts';
import { PROJECT_SCHEMA_VERSION, SceneSchema, type Project, type Scene } from '../project.ts';
import { DEFAULT_TAXONOMY, TaxonomySchema, type Taxonomy } from '../vqa/taxonomy.ts';
import { AdjudicationSchema, QaItemSchema, ReviewSchema, type QaItem } from '../vqa/item.ts';
import { deriveStatus } from '../vqa/review.ts';
import { parseKey, scopeOf, unknownKeyReason, type ParsedKey } from './keys.ts';
import { scopeRecords, type Rec } from './records.ts';

/**
 * Assemble a project, or parts of it, from records, as strictly as a stored document was read:
 * every record is validated against its schema and its key; a record that fails is returned as
 * `bad` with the reason (the caller sets it aside, never deletes it) and the rest still opens.
 * Records whose scope has no head yet (a node whose scene has not arrived) are `orphans`: kept,
 * not shown, and assembled once the head is there.
 */
export interface BadRecord {
  key: string;
  reason: string;
}

const SceneHeadSchema = SceneSchema.omit({ id: true, graph: true, labels: true, votes: true, adjudications: true });
const ItemHeadSchema = QaItemSchema.omit({ reviews: true, adjudication: true });
const ProjectHeadSchema = z.object({ schemaVersion: z.number(), name: z.string() }).passthrough();

type Top = { head: z.infer<typeof ProjectHeadSchema>; taxonomy: Taxonomy; profiles: AgentProfile[] };
/** One scope assembled: present (with its order among its siblings) or absent. */
export type AssembledScope =
  | { kind: 'top'; top: Top | null }
  | { kind: 'scene'; id: string; scene: Scene | null; order: number }
  | { kind: 'item'; id: string; item: QaItem | null; order: number };

export interface ScopeResult {
  scope: AssembledScope;
  bad: BadRecord[];
  orphans: string[];
  newer?: string;
}

const byOrder = <T extends { order: number; key: string }>(a: T, b: T) => a.order - b.order || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function parse<T>(schema: z.ZodType<T>, r: Rec, bad: BadRecord[]): T | undefined {
  const p = schema.safeParse(r.value);
  if (p.success) return p.data;
  const first = p.error.issues[0]!;
  bad.push({ key: r.key, reason: `${first.path.join('.') || 'the record'}: ${first.message}` });
  return undefined;
}

/** Assemble one scope (`scopeOf`) from all of its records. */
export function assembleScope(scope: string, recs: readonly Rec[]): ScopeResult {
  const bad: BadRecord[] = [];
  const parsed: { r: Rec; k: ParsedKey }[] = [];
  for (const r of recs) {
    const k = parseKey(r.key);
    if (!k || scopeOf(k) !== scope) bad.push({ key: r.key, reason: k ? 'not a record key Traversa knows' : unknownKeyReason(r.key) });
    else parsed.push({ r, k });
  }
  return assembleParsed(scope, parsed, bad);
}

/** One scope from records whose keys are parsed and belong to it. */
function assembleParsed(scope: string, parsed: { r: Rec; k: ParsedKey }[], bad: BadRecord[]): ScopeResult {
  if (scope === 'top') return assembleTop(parsed, bad);
  const id = scope.slice(scope.indexOf(':') + 1);
  return scope.startsWith('scene:') ? assembleScene(id, parsed, bad) : assembleItem(id, parsed, bad);
}

function assembleTop(parsed: { r: Rec; k: ParsedKey }[], bad: BadRecord[]): ScopeResult {
  let head: Top['head'] | undefined;
  let taxonomy: Taxonomy | undefined;
  const profiles: { order: number; key: string; p: AgentProfile }[] = [];
  for (const { r, k } of parsed) {
    if (k.kind === 'project') head = parse(ProjectHeadSchema, r, bad);
    else if (k.kind === 'taxonomy') taxonomy = parse(TaxonomySchema, r, bad);
    else if (k.kind === 'profile') {
      const p = parse(AgentProfileSchema, r, bad);
      if (p && p.name !== k.parts[0]) bad.push({ key: r.key, reason: `the profile is called ${p.name}, not ${k.parts[0]}` });
      else if (p) profiles.push({ order: r.order, key: r.key, p });
    }
  }
  if (!head) return { scope: { kind: 'top', top: null }, bad, orphans: parsed.filter(({ k }) => k.kind !== 'project').map(({ r }) => r.key) };
  if (head.schemaVersion > PROJECT_SCHEMA_VERSION) {
    return {
      scope: { kind: 'top', top: null },
      bad,
      orphans: [],
      newer: `the stored project was written by a newer Traversa (schema ${head.schemaVersion}; this one reads up to ${PROJECT_SCHEMA_VERSION})`,
    };
  }
  return { scope: { kind: 'top', top: { head, taxonomy: taxonomy ?? DEFAULT_TAXONOMY, profiles: profiles.sort(byOrder).map((x) => x.p) } }, bad, orphans: [] };
}

function assembleScene(id: string, parsed: { r: Rec; k: ParsedKey }[], bad: BadRecord[]): ScopeResult {
  // The id comes from the key (a teammate's, a stored one): refused as a document's would be, before it names any file.
  const unsafe = pathPartProblem(id);
  if (unsafe)
    return {
      scope: { kind: 'scene', id, scene: null, order: 0 },
      bad: [...bad, ...parsed.map(({ r }) => ({ key: r.key, reason: `the scene id ${JSON.stringify(id)} ${unsafe}` }))],
      orphans: [],
    };
  const headRec = parsed.find(({ k }) => k.kind === 'scene');
  const head = headRec && parse(SceneHeadSchema, headRec.r, bad);
  if (!head) return { scope: { kind: 'scene', id, scene: null, order: 0 }, bad, orphans: parsed.filter((p) => p !== headRec).map(({ r }) => r.key) };
  const nodes: { order: number; key: string; v: z.infer<typeof NavNodeSchema> }[] = [];
  const edges: { order: number; key: string; v: z.infer<typeof NavEdgeSchema> }[] = [];
  const labels: { order: number; key: string; agent: string; seg: string; author: string; v: Label }[] = [];
  const decisions: { order: number; key: string; agent: string; seg: string; v: LabelAdjudication }[] = [];
  for (const { r, k } of parsed) {
    if (k.kind === 'node') {
      const v = parse(NavNodeSchema, r, bad);
      if (v && v.id !== k.parts[1]) bad.push({ key: r.key, reason: `the node is ${v.id}, not ${k.parts[1]}` });
      else if (v) nodes.push({ order: r.order, key: r.key, v });
    } else if (k.kind === 'edge') {
      const v = parse(NavEdgeSchema, r, bad);
      if (v && v.id !== k.parts[1]) bad.push({ key: r.key, reason: `the edge is ${v.id}, not ${k.parts[1]}` });
      else if (v) edges.push({ order: r.order, key: r.key, v });
    } else if (k.kind === 'label') {
      const v = parse(LabelSchema, r, bad);
      if (v && authorOf(v) !== k.parts[3]) bad.push({ key: r.key, reason: `the label is ${authorOf(v) || 'unnamed'}'s, not ${k.parts[3] || 'unnamed'}'s` });
      else if (v) labels.push({ order: r.order, key: r.key, agent: k.parts[1]!, seg: k.parts[2]!, author: k.parts[3]!, v });
    } else if (k.kind === 'adjudication') {
      const v = parse(LabelAdjudicationSchema, r, bad);
      if (v) decisions.push({ order: r.order, key: r.key, agent: k.parts[1]!, seg: k.parts[2]!, v });
    }
  }
  const votes: VoteTable = {};
  for (const l of labels.sort(byOrder)) ((votes[l.agent] ??= {})[l.seg] ??= {})[l.author] = l.v;
  const adjudications: AdjudicationTable = {};
  for (const d of decisions.sort(byOrder)) (adjudications[d.agent] ??= {})[d.seg] = d.v;
  const scene: Scene = {
    id,
    ...head,
    graph: { nodes: nodes.sort(byOrder).map((n) => n.v), edges: edges.sort(byOrder).map((e) => e.v) },
    labels: labelsInForce(votes, adjudications),
    votes,
    adjudications,
  };
  return { scope: { kind: 'scene', id, scene, order: headRec.r.order }, bad, orphans: [] };
}

function assembleItem(id: string, parsed: { r: Rec; k: ParsedKey }[], bad: BadRecord[]): ScopeResult {
  const headRec = parsed.find(({ k }) => k.kind === 'qaitem');
  const head = headRec && parse(ItemHeadSchema, headRec.r, bad);
  if (head && head.id !== id) bad.push({ key: headRec.r.key, reason: `the item is ${head.id}, not ${id}` });
  if (!head || head.id !== id)
    return { scope: { kind: 'item', id, item: null, order: 0 }, bad, orphans: parsed.filter((p) => p !== headRec).map(({ r }) => r.key) };
  const reviews: { order: number; key: string; v: z.infer<typeof ReviewSchema> }[] = [];
  let adjudication: z.infer<typeof AdjudicationSchema> | undefined;
  for (const { r, k } of parsed) {
    if (k.kind === 'review') {
      const v = parse(ReviewSchema, r, bad);
      if (v && v.reviewer !== k.parts[1]) bad.push({ key: r.key, reason: `the review is ${v.reviewer}'s, not ${k.parts[1]}'s` });
      else if (v) reviews.push({ order: r.order, key: r.key, v });
    } else if (k.kind === 'qaadjudication') adjudication = parse(AdjudicationSchema, r, bad);
  }
  const assembled: QaItem = { ...head, reviews: reviews.sort(byOrder).map((x) => x.v), ...(adjudication ? { adjudication } : {}) };
  // The status follows the reviews, which may have come from other people than the item.
  const item = { ...assembled, status: deriveStatus(assembled) };
  return { scope: { kind: 'item', id, item, order: headRec.r.order }, bad, orphans: [] };
}

/**
 * The project with some scopes replaced by their assembled versions (null: removed). Scenes and
 * items keep their order: untouched ones at their place, assembled ones at their stored order.
 */
export function withScopes(project: Project, scopes: readonly AssembledScope[]): Project {
  let next = project;
  const scenes = new Map<string, { scene: Scene | null; order: number }>();
  const items = new Map<string, { item: QaItem | null; order: number }>();
  for (const s of scopes) {
    if (s.kind === 'top' && s.top) {
      const {
        head: { schemaVersion: _v, ...head },
        taxonomy,
        profiles,
      } = s.top;
      next = { ...next, ...head, schemaVersion: PROJECT_SCHEMA_VERSION, profiles, qa: { ...next.qa, taxonomy } };
    } else if (s.kind === 'scene') scenes.set(s.id, s);
    else if (s.kind === 'item') items.set(s.id, s);
  }
  if (scenes.size)
    next = {
      ...next,
      scenes: reorder(
        next.scenes,
        (x) => x.id,
        scenes,
        (x) => x.scene,
      ),
    };
  if (items.size)
    next = {
      ...next,
      qa: {
        ...next.qa,
        items: reorder(
          next.qa.items,
          (x) => x.id,
          items,
          (x) => x.item,
        ),
      },
    };
  return next;
}

function reorder<T, R extends { order: number }>(list: readonly T[], id: (t: T) => string, replaced: Map<string, R>, value: (r: R) => T | null): T[] {
  const placed: { t: T; order: number; i: number }[] = [];
  list.forEach((t, i) => {
    if (!replaced.has(id(t))) placed.push({ t, order: i, i });
  });
  let i = list.length;
  for (const r of replaced.values()) {
    const t = value(r);
    if (t) placed.push({ t, order: r.order, i: i++ });
  }
  return placed.sort((a, b) => a.order - b.order || a.i - b.i).map((p) => p.t);
}

export interface Assembled {
  project: Project | null;
  bad: BadRecord[];
  orphans: string[];
  message?: string;
}

/** Assemble a whole project from its records. */
export function assembleProject(recs: Iterable<Rec>): Assembled {
  return completed(assembleProjectSteps(recs));
}

/**
 * The same, one scope per step: a page runs it in slices (persistence/sliced.ts) so that assembling
 * 1,000 scenes never holds the main thread for long.
 */
export function* assembleProjectSteps(recs: Iterable<Rec>): Generator<void, Assembled, void> {
  const assembly = new ProjectAssembly();
  yield* assembly.add(recs);
  return assembly.finish();
}

/**
 * A project assembled from records that arrive a part at a time (a reload reads the stored buckets
 * in pages): each part's scopes are assembled as it arrives, so assembling overlaps with reading the
 * rest. A part holds whole scopes (a browser bucket is one scope: keys.ts `bucketOf`); a record of a
 * scope an earlier part already held is laid over that scope at the end, as a change would be.
 * Each part's records are let go once its scopes are assembled: a large project is not held twice.
 */
export class ProjectAssembly {
  private readonly unknown: BadRecord[] = [];
  private readonly parts: ScopeResult[] = [];
  private readonly assembled = new Set<string>();
  private readonly top: Rec[] = [];
  private readonly late: Rec[] = [];

  /** Take a part's records, a scope per step. */
  *add(recs: Iterable<Rec>): Generator<void, void, void> {
    // Each key is parsed once, here: its scope groups it and its parts place it in the scope.
    const byScope = new Map<string, { r: Rec; k: ParsedKey }[]>();
    let n = 0;
    for (const r of recs) {
      if (++n % 2000 === 0) yield;
      const k = parseKey(r.key);
      const scope = k && scopeOf(k);
      if (scope === null) this.unknown.push({ key: r.key, reason: unknownKeyReason(r.key) });
      else if (scope === 'top') this.top.push(r);
      else if (this.assembled.has(scope)) this.late.push(r);
      else {
        let list = byScope.get(scope);
        if (!list) byScope.set(scope, (list = []));
        list.push({ r, k: k! });
      }
    }
    for (const [scope, list] of byScope) {
      this.parts.push(assembleParsed(scope, list, []));
      this.assembled.add(scope);
      byScope.delete(scope);
      yield;
    }
  }

  /** The project, once every part has been added. */
  finish(): Assembled {
    const top = assembleScope('top', this.top);
    if (top.newer) return { project: null, bad: this.unknown, orphans: [], message: top.newer };
    if (top.scope.kind !== 'top' || !top.scope.top)
      return { project: null, bad: [...this.unknown, ...top.bad], orphans: top.orphans, message: 'the stored project has no readable project record' };
    const empty: Project = { schemaVersion: PROJECT_SCHEMA_VERSION, name: '', profiles: [], scenes: [], qa: { taxonomy: DEFAULT_TAXONOMY, items: [] } };
    const whole: Assembled & { project: Project } = {
      project: withScopes(empty, [top.scope, ...this.parts.map((p) => p.scope)]),
      bad: [...this.unknown, ...top.bad, ...this.parts.flatMap((p) => p.bad)],
      orphans: this.parts.flatMap((p) => p.orphans),
    };
    if (!this.late.length) return whole;
    const laid = applyChanges(
      whole.project,
      this.late.map((r) => ({ key: r.key, after: r })),
    );
    return { project: laid.project, bad: [...whole.bad, ...laid.bad], orphans: [...whole.orphans, ...laid.orphans] };
  }
}

/**
 * Apply record changes to a project in memory (undo, redo, a merge): each touched scope is
 * re-assembled from its current records with the changes laid over them.
 */
export function applyChanges(project: Project, changes: readonly { key: string; after: Rec | undefined }[]): Assembled & { project: Project } {
  const byScope = new Map<string, (typeof changes)[number][]>();
  for (const c of changes) {
    const k = parseKey(c.key);
    if (!k) continue;
    const scope = scopeOf(k);
    let list = byScope.get(scope);
    if (!list) byScope.set(scope, (list = []));
    list.push(c);
  }
  const results = [...byScope].map(([scope, list]) => {
    const recs = new Map(scopeRecords(project, scope).map((r) => [r.key, r]));
    for (const c of list) {
      if (c.after) recs.set(c.key, c.after);
      else recs.delete(c.key);
    }
    return assembleScope(scope, [...recs.values()]);
  });
  return {
    project: withScopes(
      project,
      results.map((r) => r.scope),
    ),
    bad: results.flatMap((r) => r.bad),
    orphans: results.flatMap((r) => r.orphans),
  };
}
