import type { Project } from '../project.ts';
import { parseKey } from './keys.ts';
import { projectRecords, sameValue, type Rec } from './records.ts';

/**
 * Merging an imported project into the open one, record by record: what the import adds, what
 * both already hold alike, and every record both hold differently (a conflict, shown to the user
 * before anything changes). A merge never removes a record. Two annotators' labels of one
 * segment are different records (keys carry the annotator), so merging a teammate's labels adds
 * their votes beside yours instead of conflicting; where you disagree the segment is disputed.
 */
export interface MergeConflict {
  key: string;
  /** What the record is, in words. */
  what: string;
  mine: string;
  theirs: string;
}

export interface MergePlan {
  /** Records the open project does not have. */
  adds: Rec[];
  /** Records both hold with the same content. */
  same: number;
  conflicts: (MergeConflict & { mineRec: Rec; theirsRec: Rec })[];
}

/** The order a record has among its kind in the open project after a merge: new ones go after the existing ones. */
const AFTER = 1_000_000;

export function planMerge(current: Project, incoming: Project): MergePlan {
  const mine = new Map(projectRecords(current).map((r) => [r.key, r]));
  const adds: Rec[] = [];
  const conflicts: MergePlan['conflicts'] = [];
  let same = 0;
  let newScene = current.scenes.length,
    newItem = current.qa.items.length;
  for (const r of projectRecords(incoming)) {
    // The open project keeps its own name: an import's folder name is not a change to merge.
    if (r.key === 'project') continue;
    const m = mine.get(r.key);
    if (!m) {
      const kind = parseKey(r.key)?.kind;
      // A new scene or item goes after the open project's; a new record inside an existing scope after its siblings.
      const order = kind === 'scene' ? newScene++ : kind === 'qaitem' ? newItem++ : kind === 'profile' ? current.profiles.length + r.order : AFTER + r.order;
      adds.push({ ...r, order });
    } else if (sameValue(m.value, r.value)) same++;
    else
      conflicts.push({
        key: r.key,
        what: describeKey(r.key),
        mine: describeValue(r.key, m.value, r.value),
        theirs: describeValue(r.key, r.value, m.value),
        mineRec: m,
        theirsRec: r,
      });
  }
  return { adds, same, conflicts };
}

/** The record changes a merge makes: the additions, and for each conflict the side chosen (`theirs` holds the keys where the import wins). */
export function mergeChanges(plan: MergePlan, theirs: ReadonlySet<string>): { key: string; after: Rec }[] {
  return [
    ...plan.adds.map((r) => ({ key: r.key, after: r })),
    ...plan.conflicts.filter((c) => theirs.has(c.key)).map((c) => ({ key: c.key, after: { ...c.theirsRec, order: c.mineRec.order } })),
  ];
}

export function describeKey(key: string): string {
  const p = parseKey(key);
  if (!p) return key;
  const [a, b, c, d] = p.parts;
  switch (p.kind) {
    case 'project':
      return 'the project itself (its name)';
    case 'taxonomy':
      return 'the QA taxonomy';
    case 'profile':
      return `agent profile ${a}`;
    case 'scene':
      return `scene ${a} (its questions, hallucination list, scan)`;
    case 'node':
      return `node ${b} of scene ${a}`;
    case 'edge':
      return `edge ${b} of scene ${a}`;
    case 'label':
      return `${b} label of ${c} in scene ${a}, by ${d || 'no one named'}`;
    case 'adjudication':
      return `decision on the ${b} label of ${c} in scene ${a}`;
    case 'qaitem':
      return `QA item ${a}`;
    case 'review':
      return `${b}'s review of QA item ${a}`;
    case 'qaadjudication':
      return `adjudication of QA item ${a}`;
  }
}

/** A value in a few words: a label's judgement, otherwise the fields where it differs from the other side. */
export function describeValue(key: string, value: unknown, other: unknown): string {
  const kind = parseKey(key)?.kind;
  if (kind === 'label' && value && typeof value === 'object') {
    const l = value as { traversable?: boolean; note?: string };
    return `${l.traversable ? 'traversable' : 'not traversable'}${l.note ? ` (${l.note})` : ''}`;
  }
  if (!value || typeof value !== 'object' || !other || typeof other !== 'object') return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  const v = value as Record<string, unknown>,
    o = other as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(v), ...Object.keys(o)])].filter((f) => !sameValue(v[f], o[f]));
  return fields.map((f) => `${f}: ${short(v[f])}`).join('; ');
}

function short(v: unknown): string {
  if (v === undefined) return '—';
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
