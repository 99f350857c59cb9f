import type { Problem } from '../problems.ts';
import type { Project, Scene } from '../project.ts';
import { parseKey } from './keys.ts';
import { itemRecords, sceneRecords, topRecords, type Rec } from './records.ts';
import { append } from '../arrays.ts';

/**
 * Whether a project can be stored as records, checked before an import changes anything: every
 * record needs its own key (two nodes with one id would be one record), and no value may nest
 * deeper than storage, sync and JSON can follow (a 5,000-level array in an unmodelled field
 * overflows the browser's structured clone and every later save would fail).
 */
export const MAX_DEPTH = 64;

/** The path to the first place `value` nests deeper than `limit`, or null. It cannot overflow itself: the first pass recurses at most `limit` calls deep, the second is iterative. */
export function tooDeep(value: unknown, limit = MAX_DEPTH): string | null {
  // Every record of an import is walked: first without building paths (almost all pass), and
  // only for a value that is too deep again with them, in the same order, to name the place.
  return deeperThan(value, limit) ? deepPath(value, limit) : null;
}

/** Recursive, but never deeper than `limit` (64) calls: it stops there. */
function deeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit <= 0) return true;
  if (Array.isArray(value)) {
    for (const x of value) if (typeof x === 'object' && x !== null && deeperThan(x, limit - 1)) return true;
    return false;
  }
  for (const k in value) {
    const x = (value as Record<string, unknown>)[k];
    if (typeof x === 'object' && x !== null && deeperThan(x, limit - 1)) return true;
  }
  return false;
}

function deepPath(value: unknown, limit: number): string | null {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 0, path: '' }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= limit) return path || '(top)';
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, depth: depth + 1, path: `${path}[${i}]` }));
    else for (const [k, x] of Object.entries(v)) stack.push({ v: x, depth: depth + 1, path: path ? `${path}.${k}` : k });
  }
  return null;
}

/** The release file a record comes from, for the report. */
function fileOf(key: string): string {
  const p = parseKey(key);
  if (!p) return '';
  const scene = p.parts[0] ?? '';
  switch (p.kind) {
    case 'node':
    case 'edge':
      return `graphs/${scene}-graph.json`;
    case 'label':
    case 'adjudication':
      return `traverse/${scene}-traverse.json`;
    case 'scene':
      return `${scene} (graph, QA or traverse file)`;
    case 'profile':
      return 'agent_profile.json';
    default:
      return '';
  }
}

export function storageProblems(project: Project): Problem[] {
  const out = recordProblems(topRecords(project));
  for (const scene of project.scenes) {
    if (out.length >= LISTED) break;
    append(out, sceneStorageProblems(scene));
  }
  project.qa.items.forEach((item, i) => {
    if (out.length < LISTED) append(out, recordProblems(itemRecords(item, i)));
  });
  return out.slice(0, LISTED);
}

/** At most this many problems are listed. */
const LISTED = 50;

/**
 * A scene's records checked once per scene object (scenes are immutable): an import checks each
 * scene as soon as it is read, while the browser still reads the files of the others. Keys of
 * different scenes cannot collide (each holds its scene's id), so a scene is checked on its own.
 */
const checkedScenes = new WeakMap<Scene, Problem[]>();
export function sceneStorageProblems(scene: Scene): Problem[] {
  let found = checkedScenes.get(scene);
  if (!found) checkedScenes.set(scene, (found = recordProblems(sceneRecords(scene, 0))));
  return found;
}

const uniqueByMaking = (key: string): boolean => key.startsWith('label/') || key.startsWith('adjudication/');

function recordProblems(recs: readonly Rec[]): Problem[] {
  const out: Problem[] = [];
  const problem = (key: string, location: string, message: string) =>
    out.push({ severity: 'fatal', code: 'import.unstorable', file: fileOf(key), location, message });
  const seen = new Set<string>();
  for (const r of recs) {
    // A label's or adjudication's key is made of keys of nested objects (agent → segment → author), which cannot repeat; only ids from lists can.
    if (!uniqueByMaking(r.key)) {
      if (seen.has(r.key)) problem(r.key, r.key, `${r.key} occurs twice; Traversa stores each by its id, so ids must be unique`);
      seen.add(r.key);
    }
    const deep = tooDeep(r.value);
    if (deep)
      problem(
        r.key,
        `${r.key} ${deep.length > 120 ? `${deep.slice(0, 117)}…` : deep}`,
        `nested more than ${MAX_DEPTH} levels deep; a browser cannot store it, so nothing was imported`,
      );
    if (out.length >= LISTED) break;
  }
  return out;
}
