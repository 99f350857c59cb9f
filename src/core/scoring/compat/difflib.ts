/**
 * Python's `difflib.SequenceMatcher(None, a, b)` for strings, ported line for line from CPython
 * so that `ratio()` agrees to the last bit: the released CapNav scorer accepts a fuzzy node-name
 * match at ratio ≥ 0.78 and a near-miss must fall on the same side of that cut.
 *
 * Sequences are compared by code point, as Python compares the characters of a `str`.
 * With `isjunk = None` there is no junk, but the "autojunk" heuristic still applies: when `b`
 * has at least 200 elements, elements occurring more than `1 + len(b) // 100` times are
 * "popular" and never start a match — though, as in CPython, a match may still be extended
 * through them, because popular elements are not junk.
 */
export interface Match {
  /** Start in `a`. */
  a: number;
  /** Start in `b`. */
  b: number;
  size: number;
}

export class SequenceMatcher {
  private readonly a: number[];
  private readonly b: number[];
  /** Element of b → ascending indices where it occurs (popular elements removed). */
  private readonly b2j = new Map<number, number[]>();
  readonly popular = new Set<number>();
  private blocks: Match[] | null = null;

  constructor(a: string, b: string, autojunk = true) {
    this.a = codePoints(a);
    this.b = codePoints(b);
    this.b.forEach((elt, i) => {
      const list = this.b2j.get(elt);
      if (list) list.push(i); else this.b2j.set(elt, [i]);
    });
    const n = this.b.length;
    if (autojunk && n >= 200) {
      const ntest = Math.floor(n / 100) + 1;
      for (const [elt, idxs] of this.b2j) if (idxs.length > ntest) this.popular.add(elt);
      for (const elt of this.popular) this.b2j.delete(elt);
    }
  }

  /**
   * Longest matching block in a[alo:ahi] and b[blo:bhi]; of all maximal blocks, the one that
   * starts earliest in a, and of those the one that starts earliest in b.
   */
  findLongestMatch(alo = 0, ahi = this.a.length, blo = 0, bhi = this.b.length): Match {
    const { a, b, b2j } = this;
    let besti = alo, bestj = blo, bestsize = 0;
    // j2len[j + 1] = length of the longest match ending with a[i-1] and b[j] (CPython keeps it in a dict;
    // two arrays cleared entry by entry give the same values without allocating per row).
    let j2len = this.scratch(0), newj2len = this.scratch(1);
    let touched: number[] = [], newTouched: number[] = [];
    for (let i = alo; i < ahi; i++) {
      const js = b2j.get(a[i]!);
      if (js) {
        for (const j of js) {
          if (j < blo) continue;
          if (j >= bhi) break;
          const k = j2len[j]! + 1;
          newj2len[j + 1] = k;
          newTouched.push(j + 1);
          if (k > bestsize) { besti = i - k + 1; bestj = j - k + 1; bestsize = k; }
        }
      }
      for (const t of touched) j2len[t] = 0;
      [j2len, newj2len] = [newj2len, j2len];
      [touched, newTouched] = [newTouched, touched];
      newTouched.length = 0;
    }
    for (const t of touched) j2len[t] = 0;
    // Extend by equal elements on both ends (nothing is junk when isjunk is None, popular ones included).
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) { besti--; bestj--; bestsize++; }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return { a: besti, b: bestj, size: bestsize };
  }

  private readonly rows: Int32Array[] = [];
  /** A zeroed row of len(b) + 1 counters, reused across calls (every call leaves it zeroed). */
  private scratch(k: number): Int32Array {
    return (this.rows[k] ??= new Int32Array(this.b.length + 1));
  }

  /** Matching blocks in increasing order, adjacent ones merged, ending with the sentinel (len a, len b, 0). */
  getMatchingBlocks(): Match[] {
    if (this.blocks) return this.blocks;
    const la = this.a.length, lb = this.b.length;
    const queue: [number, number, number, number][] = [[0, la, 0, lb]];
    const found: Match[] = [];
    while (queue.length) {
      const [alo, ahi, blo, bhi] = queue.pop()!;
      const m = this.findLongestMatch(alo, ahi, blo, bhi);
      if (m.size) {
        found.push(m);
        if (alo < m.a && blo < m.b) queue.push([alo, m.a, blo, m.b]);
        if (m.a + m.size < ahi && m.b + m.size < bhi) queue.push([m.a + m.size, ahi, m.b + m.size, bhi]);
      }
    }
    found.sort((x, y) => x.a - y.a || x.b - y.b || x.size - y.size);
    const merged: Match[] = [];
    let i1 = 0, j1 = 0, k1 = 0;
    for (const { a: i2, b: j2, size: k2 } of found) {
      if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
      else {
        if (k1) merged.push({ a: i1, b: j1, size: k1 });
        i1 = i2; j1 = j2; k1 = k2;
      }
    }
    if (k1) merged.push({ a: i1, b: j1, size: k1 });
    merged.push({ a: la, b: lb, size: 0 });
    this.blocks = merged;
    return merged;
  }

  /** 2·M / T, where M is the number of matched elements and T the total length; 1.0 for two empty strings. */
  ratio(): number {
    const matches = this.getMatchingBlocks().reduce((sum, m) => sum + m.size, 0);
    const length = this.a.length + this.b.length;
    return length ? (2 * matches) / length : 1;
  }
}

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

/** `difflib.SequenceMatcher(None, a, b).ratio()`. */
export function sequenceRatio(a: string, b: string): number {
  return new SequenceMatcher(a, b).ratio();
}

/**
 * An upper bound of `sequenceRatio(a, b)` that is cheap: CPython's `quick_ratio()` (matches
 * cannot exceed the shared characters, counted with multiplicity). Same denominator, so the
 * bound holds for the computed floats too, not only for the exact fractions.
 */
export function quickRatio(a: string, b: string): number {
  const avail = new Map<number, number>();
  let la = 0, lb = 0, matches = 0;
  for (const ch of b) { const c = ch.codePointAt(0)!; avail.set(c, (avail.get(c) ?? 0) + 1); lb++; }
  for (const ch of a) {
    const c = ch.codePointAt(0)!;
    la++;
    const n = avail.get(c) ?? 0;
    if (n > 0) { matches++; avail.set(c, n - 1); }
  }
  const length = la + lb;
  return length ? (2 * matches) / length : 1;
}
