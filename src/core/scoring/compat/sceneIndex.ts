import { codePoints, SequenceMatcher } from './difflib.ts';
import { guessEndpoints, type Endpoints, type NamedNodes } from './endpoints.ts';
import { normaliseText } from './normalise.ts';
import { pyCompare, pyLen, pyStrip } from './pyText.ts';
import type { CompatLabel, CompatSceneTruth } from './types.ts';

const FUZZY_CUT = 0.78;
/** Python `re.fullmatch(r"node_\d+", token)`; Python's `\d` is any Unicode decimal digit. */
const NODE_ID = /^node_\p{Nd}+$/u;
/** `NODE_ID.test`, ASCII digits checked without the regex (the common case). */
function isNodeId(t: string): boolean {
  if (t.length < 6 || !t.startsWith('node_')) return false;
  for (let i = 5; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c < 48 || c > 57) return NODE_ID.test(t);
  }
  return true;
}
const NO_LABELS: Readonly<Record<string, CompatLabel>> = Object.freeze(Object.create(null) as Record<string, CompatLabel>);

interface ScoredName {
  name: string;
  norm: string;
  normLen: number;
  id: string;
  matcher?: SequenceMatcher;
  /** How often each ASCII character occurs in `norm`; null when it has others. */
  counts?: Int32Array | null;
}

/** How often each character occurs, for a text of ASCII characters only; null otherwise. */
function asciiCounts(codes: readonly number[]): Int32Array | null {
  const counts = new Int32Array(128);
  for (const c of codes) {
    if (c >= 128) return null;
    counts[c]!++;
  }
  return counts;
}

/** Σ over the characters of a of min(count in a, count in b): the matches `quick_ratio` counts. */
function sharedCount(aChars: readonly number[], a: Int32Array, b: Int32Array): number {
  let n = 0;
  for (const c of aChars) n += Math.min(a[c]!, b[c]!);
  return n;
}

/** Lists of n nulls, shared (never changed). */
const NULLS: null[][] = [];
function nulls(n: number): null[] {
  return (NULLS[n] ??= Object.freeze(new Array<null>(n).fill(null)) as null[]);
}

/** The token's character counts, reused (zeroed again after each token). */
const TOKEN_COUNTS = new Int32Array(128);

/** Count ASCII characters into `counts` (all zero); the distinct ones, or null (and `counts` zero) if any is not ASCII. */
function countInto(counts: Int32Array, codes: readonly number[]): number[] | null {
  const chars: number[] = [];
  for (const c of codes) {
    if (c >= 128) {
      for (const d of chars) counts[d] = 0;
      return null;
    }
    if (counts[c]!++ === 0) chars.push(c);
  }
  return chars;
}

/** A path's tokens resolved: ids (null when unresolved) and the node name each was matched to (all null when used as ids). */
export interface ResolvedPath {
  ids: (string | null)[];
  mapped: (string | null)[];
}

/**
 * One scene as the released scorer sees it, with the caches that make 100,000 records cheap:
 * endpoint guesses per question text, token mappings per token, reachable sets per (source, agent).
 */
export class SceneIndex {
  /** Distinct raw names in first-appearance order, each with the id of the LAST node so named (`{n["name"]: n["id"]}`). */
  readonly names: NamedNodes;
  private readonly nameList: readonly ScoredName[];
  /** Normalised name → the first raw name with that form (the exact-match pass). */
  private readonly exact = new Map<string, string>();
  private readonly idOfName = new Map<string, string>();
  private readonly ids = new Set<string>();
  private readonly neighbours = new Map<string, string[]>();
  /** Node → the nodes an edge joins it to (both directions). */
  private readonly edgeSet = new Map<string, Set<string>>();
  private readonly endpointCache = new Map<string | null, Endpoints>();
  private readonly tokenCache = new Map<string, string | null>();
  /** Agent key (null: no table) → source → the nodes reached. */
  private readonly reachCache = new Map<string | null, Map<string, Set<string>>>();
  /** Agent key → a → b → label: asked for every step of every path and search. */
  private readonly labelCache = new Map<string, Map<string, Map<string, CompatLabel | null>>>();

  constructor(private readonly truth: CompatSceneTruth) {
    for (const n of truth.nodes) {
      this.idOfName.set(n.name, n.id);
      this.ids.add(n.id);
    }
    const names: ScoredName[] = [];
    for (const [name, id] of this.idOfName) {
      const norm = normaliseText(name);
      names.push({ name, norm, normLen: pyLen(norm), id });
      if (norm && !this.exact.has(norm)) this.exact.set(norm, name);
    }
    this.names = names;
    this.nameList = names.filter((n) => n.norm !== '');
    for (const e of truth.edges) {
      this.neighbour(e.from).push(e.to);
      this.neighbour(e.to).push(e.from);
      this.joined(e.from).add(e.to);
      this.joined(e.to).add(e.from);
    }
  }

  private joined(id: string): Set<string> {
    let set = this.edgeSet.get(id);
    if (!set) this.edgeSet.set(id, (set = new Set()));
    return set;
  }

  private neighbour(id: string): string[] {
    let list = this.neighbours.get(id);
    if (!list) this.neighbours.set(id, (list = []));
    return list;
  }

  /** The endpoint guess for a question (null: the question is not a string). */
  endpoints(question: string | null): Endpoints {
    let e = this.endpointCache.get(question);
    if (e === undefined) this.endpointCache.set(question, (e = guessEndpoints(question, this.names)));
    return e;
  }

  hasEdge(a: string, b: string): boolean {
    return this.edgeSet.get(a)?.has(b) ?? false;
  }

  /**
   * `agent_key`: the agent upper-cased if the traverse file has that key; `HUMANOID` falls back
   * to `ROBOT` when it has no key of its own; null (no traversable edge) otherwise.
   */
  agentKey(agentUpper: string): string | null {
    const t = this.truth.traverse;
    if (Object.hasOwn(t, agentUpper)) return agentUpper;
    if (agentUpper === 'HUMANOID' && Object.hasOwn(t, 'ROBOT')) return 'ROBOT';
    return null;
  }

  private table(key: string | null): Readonly<Record<string, CompatLabel>> {
    return key === null ? NO_LABELS : (this.truth.traverse[key] ?? NO_LABELS);
  }

  /** `ad.get("a|b", ad.get("b|a", {}))`: the entry under `a|b` when the key exists, else `b|a`. Cached per agent and pair. */
  private label(key: string | null, a: string, b: string): CompatLabel | null {
    if (key === null) return null;
    let byA = this.labelCache.get(key);
    if (!byA) this.labelCache.set(key, (byA = new Map()));
    let fromA = byA.get(a);
    if (!fromA) byA.set(a, (fromA = new Map()));
    let label = fromA.get(b);
    if (label === undefined) {
      const t = this.table(key);
      const ab = `${a}|${b}`,
        ba = `${b}|${a}`;
      label = (Object.hasOwn(t, ab) ? t[ab] : Object.hasOwn(t, ba) ? t[ba] : undefined) ?? null;
      fromA.set(b, label);
    }
    return label;
  }

  traversable(key: string | null, a: string, b: string): boolean {
    return this.label(key, a, b)?.traversable === true;
  }

  /** §2 step 4: breadth-first search from src over traversable edges; src itself is always reached. */
  doable(src: string, tgt: string, key: string | null): boolean {
    if (src === tgt) return true;
    let byKey = this.reachCache.get(key);
    if (!byKey) this.reachCache.set(key, (byKey = new Map()));
    let seen = byKey.get(src);
    if (!seen) {
      seen = new Set([src]);
      const queue = [src];
      for (let i = 0; i < queue.length; i++) {
        const u = queue[i]!;
        for (const v of this.neighbours.get(u) ?? []) {
          if (!seen.has(v) && this.traversable(key, u, v)) {
            seen.add(v);
            queue.push(v);
          }
        }
      }
      byKey.set(src, seen);
    }
    return seen.has(tgt);
  }

  /**
   * §2 step 8 (`collect_failure_notes_along_path`): the stripped notes of the non-traversable
   * consecutive pairs of resolved ids, first occurrence kept; a missing or blank note becomes
   * `Edge <u>-><v> not traversable for <KEY>` (the traverse key: `ROBOT` for the humanoid).
   * Here an empty entry (`{}`, falsy) under `a|b` gives way to `b|a`.
   */
  failureNotes(ids: readonly string[], key: string | null): string[] {
    if (key === null || ids.length < 2) return [];
    const t = this.table(key);
    const notes = new Set<string>();
    for (let i = 0; i + 1 < ids.length; i++) {
      const u = ids[i]!,
        v = ids[i + 1]!;
      const ab = Object.hasOwn(t, `${u}|${v}`) ? t[`${u}|${v}`] : undefined;
      const ba = Object.hasOwn(t, `${v}|${u}`) ? t[`${v}|${u}`] : undefined;
      const info = ab && !ab.empty ? ab : ba && !ba.empty ? ba : undefined;
      if (info?.traversable) continue;
      const note = info?.note ? pyStrip(info.note) : '';
      notes.add(note || `Edge ${u}->${v} not traversable for ${key}`);
    }
    return [...notes];
  }

  /**
   * §2 step 5: tokens to node ids. All tokens of the form `node_<digits>` that all exist are ids
   * as they are (mapped names all null); otherwise every token, an id-like one included, is
   * mapped by name.
   */
  resolvePath(tokens: string[]): ResolvedPath {
    if (tokens.length > 0 && this.allIds(tokens)) {
      // The tokens are the ids: records share these (never changed) lists rather than copy them.
      return { ids: tokens, mapped: nulls(tokens.length) };
    }
    const mapped = tokens.map((t) => this.tokenName(t));
    return { ids: mapped.map((n) => (n === null ? null : this.idOfName.get(n)!)), mapped };
  }

  private allIds(tokens: readonly string[]): boolean {
    for (const t of tokens) if (!isNodeId(t)) return false;
    for (const t of tokens) if (!this.ids.has(t)) return false;
    return true;
  }

  private tokenName(token: string): string | null {
    let name = this.tokenCache.get(token);
    if (name === undefined) this.tokenCache.set(token, (name = this.mapToken(token)));
    return name;
  }

  /**
   * `best_match_pred_name`: a token that normalises to "" matches nothing. Else the first name
   * whose normalised form equals it; else, of the names whose (non-empty) normalised form
   * contains it or is contained in it, the largest by (normalised length, raw name); else the
   * first name with the best `SequenceMatcher(None, token, name).ratio()`, if it is ≥ 0.78.
   */
  private mapToken(token: string): string | null {
    const t = normaliseText(token);
    if (!t) return null;
    const exact = this.exact.get(t);
    if (exact !== undefined) return exact;
    let contained: ScoredName | null = null;
    for (const n of this.nameList) {
      if (!(t.includes(n.norm) || n.norm.includes(t))) continue;
      if (!contained || n.normLen > contained.normLen || (n.normLen === contained.normLen && pyCompare(n.name, contained.name) > 0)) contained = n;
    }
    if (contained) return contained.name;
    const codes = codePoints(t);
    const tLen = codes.length;
    const tChars = countInto(TOKEN_COUNTS, codes);
    const tCounts = tChars ? TOKEN_COUNTS : null;
    let fuzzy: ScoredName | null = null,
      bestRatio = 0;
    for (const n of this.nameList) {
      // Names whose upper bounds fall below the cut, or do not exceed the best so far, cannot change the outcome:
      // skip their full ratio. The bounds share the ratio's denominator, so they bound the computed floats too:
      // the lengths (CPython's real_quick_ratio), then the characters shared (its quick_ratio).
      const total = tLen + n.normLen;
      const lengthBound = (2 * Math.min(tLen, n.normLen)) / total;
      if (lengthBound < FUZZY_CUT || lengthBound <= bestRatio) continue;
      n.counts ??= asciiCounts(codePoints(n.norm));
      // One matcher per name, its side worked out once (`set_seq1` for each token).
      const m = (n.matcher ??= new SequenceMatcher('', n.norm)).setSeq1(codes);
      const bound = tCounts && n.counts ? (2 * sharedCount(tChars!, tCounts, n.counts)) / total : m.quickRatio();
      if (bound < FUZZY_CUT || bound <= bestRatio) continue;
      const r = m.ratio();
      if (r > bestRatio) {
        fuzzy = n;
        bestRatio = r;
      }
    }
    if (tChars) for (const c of tChars) TOKEN_COUNTS[c] = 0;
    return fuzzy !== null && bestRatio >= FUZZY_CUT ? fuzzy.name : null;
  }
}
