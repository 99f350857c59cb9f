import { quickRatio, sequenceRatio } from './difflib.ts';
import { guessEndpoints, namedNodes, type Endpoints, type NamedNodes } from './endpoints.ts';
import { normaliseText } from './normalise.ts';
import { pyCompare, pyLen } from './pyText.ts';
import type { CompatLabel, CompatSceneTruth } from './types.ts';

const FUZZY_CUT = 0.78;
/** Python `re.fullmatch(r"node_\d+", token)`; Python's `\d` is any Unicode decimal digit. */
const NODE_ID = /^node_\p{Nd}+$/u;
const NO_LABELS: Readonly<Record<string, CompatLabel>> = {};

/**
 * One scene as the released scorer sees it, with the caches that make 100,000 records cheap:
 * endpoint guesses per question text, token mappings per token, reachable sets per (source, agent).
 */
export class SceneIndex {
  private readonly names: NamedNodes;
  /** Normalised name → id; a repeated name keeps its first position and the last node's id (a dict comprehension). */
  private readonly nameToId = new Map<string, string>();
  /** The same, as a list with code-point lengths, for the containment and fuzzy passes. */
  private readonly nameList: ScoredName[];
  private readonly ids = new Set<string>();
  private readonly neighbours = new Map<string, string[]>();
  /** Node → the nodes an edge joins it to (both directions). */
  private readonly edgeSet = new Map<string, Set<string>>();
  private readonly endpointCache = new Map<string, Endpoints | null>();
  private readonly tokenCache = new Map<string, string | null>();
  private readonly reachCache = new Map<string, Set<string>>();
  private readonly labelCache = new Map<string, Map<string, Map<string, CompatLabel | null>>>();
  private readonly tableCache = new Map<string, Readonly<Record<string, CompatLabel>>>();

  constructor(private readonly truth: CompatSceneTruth) {
    this.names = namedNodes(truth.nodes);
    for (const n of this.names) this.nameToId.set(n.name, n.id);
    this.nameList = [...this.nameToId].map(([name, id]) => ({ name, id, len: pyLen(name) }));
    for (const n of truth.nodes) this.ids.add(n.id);
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

  endpoints(question: string): Endpoints | null {
    let e = this.endpointCache.get(question);
    if (e === undefined) this.endpointCache.set(question, (e = guessEndpoints(question, this.names)));
    return e;
  }

  hasEdge(a: string, b: string): boolean {
    return this.edgeSet.get(a)?.has(b) ?? false;
  }

  /**
   * The label table of an agent. §2: `HUMANOID` falls back to `ROBOT`; read as
   * `traverse.get(agent) or traverse.get("ROBOT")`, so an empty `HUMANOID` table also falls back.
   * An unknown agent has no table, hence no traversable edge.
   */
  private table(agent: string): Readonly<Record<string, CompatLabel>> {
    let t = this.tableCache.get(agent);
    if (!t) this.tableCache.set(agent, (t = this.findTable(agent)));
    return t;
  }

  private findTable(agent: string): Readonly<Record<string, CompatLabel>> {
    const own = Object.hasOwn(this.truth.traverse, agent) ? this.truth.traverse[agent] : undefined;
    if ((!own || Object.keys(own).length === 0) && agent === 'HUMANOID' && Object.hasOwn(this.truth.traverse, 'ROBOT')) return this.truth.traverse.ROBOT!;
    return own ?? NO_LABELS;
  }

  /** The label of segment a→b: key `a|b`, else `b|a`. Cached per agent and pair: it is asked for every step of every path. */
  label(agent: string, a: string, b: string): CompatLabel | undefined {
    let byAgent = this.labelCache.get(agent);
    if (!byAgent) this.labelCache.set(agent, (byAgent = new Map()));
    let fromA = byAgent.get(a);
    if (!fromA) byAgent.set(a, (fromA = new Map()));
    let label = fromA.get(b);
    if (label === undefined) {
      const t = this.table(agent);
      const ab = `${a}|${b}`, ba = `${b}|${a}`;
      label = (Object.hasOwn(t, ab) ? t[ab] : Object.hasOwn(t, ba) ? t[ba] : undefined) ?? null;
      fromA.set(b, label);
    }
    return label ?? undefined;
  }

  traversable(agent: string, a: string, b: string): boolean {
    return this.label(agent, a, b)?.traversable === true;
  }

  /** §2 step 4: breadth-first search from src over traversable edges; src itself is always reached. */
  doable(src: string, tgt: string, agent: string): boolean {
    const key = `${src}\u0000${agent}`;
    let seen = this.reachCache.get(key);
    if (!seen) {
      seen = new Set([src]);
      const queue = [src];
      for (let i = 0; i < queue.length; i++) {
        const u = queue[i]!;
        for (const v of this.neighbours.get(u) ?? []) {
          if (!seen.has(v) && this.traversable(agent, u, v)) { seen.add(v); queue.push(v); }
        }
      }
      this.reachCache.set(key, seen);
    }
    return seen.has(tgt);
  }

  /**
   * §2 step 5: tokens to node ids. All tokens of the form `node_<digits>` that all exist are ids
   * as they are; otherwise every token (an id-like one included) is mapped by name.
   */
  pathIds(tokens: readonly string[]): (string | null)[] {
    if (tokens.every((t) => NODE_ID.test(t) && this.ids.has(t))) return [...tokens];
    return tokens.map((t) => this.tokenId(t));
  }

  private tokenId(token: string): string | null {
    let id = this.tokenCache.get(token);
    if (id === undefined) this.tokenCache.set(token, (id = this.mapToken(token)));
    return id;
  }

  /**
   * Exact normalised name; else the longest name that contains or is contained in the token
   * (ties: the larger name by code point); else the best `SequenceMatcher(None, token, name)`
   * ratio, first best in name order, if ≥ 0.78. A token that normalises to "" (say "?") is
   * contained in every name, so it maps to the longest one — Python's `"" in s` is true.
   */
  private mapToken(token: string): string | null {
    const t = normaliseText(token);
    const exact = this.nameToId.get(t);
    if (exact !== undefined) return exact;
    const tLen = pyLen(t);
    let contained: ScoredName | null = null;
    for (const n of this.nameList) {
      if (!(n.name.includes(t) || t.includes(n.name))) continue;
      if (!contained || n.len > contained.len || (n.len === contained.len && pyCompare(n.name, contained.name) > 0)) contained = n;
    }
    if (contained) return contained.id;
    let fuzzy: ScoredName | null = null, bestRatio = -1;
    for (const n of this.nameList) {
      // Names whose upper bounds fall below the cut, or do not exceed the best so far, cannot change the outcome:
      // skip their full ratio. Both bounds share the ratio's denominator, so they bound the computed floats too.
      const lengthBound = (2 * Math.min(tLen, n.len)) / (tLen + n.len);
      if (lengthBound < FUZZY_CUT || lengthBound <= bestRatio) continue;
      const bound = quickRatio(t, n.name);
      if (bound < FUZZY_CUT || bound <= bestRatio) continue;
      const r = sequenceRatio(t, n.name);
      if (r > bestRatio) { fuzzy = n; bestRatio = r; }
    }
    return fuzzy !== null && bestRatio >= FUZZY_CUT ? fuzzy.id : null;
  }
}

interface ScoredName {
  name: string;
  id: string;
  len: number;
}
