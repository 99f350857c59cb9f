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

/** The ranges still to search in `matchedCount`, four numbers each. */
const RANGES: number[] = [];
/** Scratch counters for `quickRatio`, left zeroed after each use. */
const QUICK_USED = new Int32Array(128);

export class SequenceMatcher {
  private a: number[];
  private readonly b: number[];
  /** Element of b → ascending indices where it occurs (popular elements removed). */
  private readonly b2j = new Map<number, number[]>();
  readonly popular = new Set<number>();
  private blocks: Match[] | null = null;
  /** Element of b → how often it occurs (CPython's `fullbcount`), for `quickRatio`. */
  private fullbcount: Map<number, number> | null = null;

  constructor(a: string, b: string, autojunk = true) {
    this.a = codePoints(a);
    this.b = codePoints(b);
    this.b.forEach((elt, i) => {
      const list = this.b2j.get(elt);
      if (list) list.push(i);
      else this.b2j.set(elt, [i]);
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
    const { a, b } = this;
    const ascii = (this.b2jAscii ??= this.asciiIndex());
    let besti = alo,
      bestj = blo,
      bestsize = 0;
    // j2len[j + 1] = length of the longest match ending with a[i-1] and b[j] (CPython keeps it in a dict;
    // two arrays cleared entry by entry give the same values without allocating per row).
    let j2len = this.scratch(0),
      newj2len = this.scratch(1);
    // The entries set in each, to clear them again.
    let touched = this.scratch(2),
      newTouched = this.scratch(3);
    let nTouched = 0,
      nNew = 0;
    for (let i = alo; i < ahi; i++) {
      const elt = a[i]!;
      const js = elt < 128 ? ascii[elt] : this.b2j.get(elt);
      if (js) {
        for (let x = 0; x < js.length; x++) {
          const j = js[x]!;
          if (j < blo) continue;
          if (j >= bhi) break;
          const k = j2len[j]! + 1;
          newj2len[j + 1] = k;
          newTouched[nNew++] = j + 1;
          if (k > bestsize) {
            besti = i - k + 1;
            bestj = j - k + 1;
            bestsize = k;
          }
        }
      }
      for (let x = 0; x < nTouched; x++) j2len[touched[x]!] = 0;
      const row = j2len;
      j2len = newj2len;
      newj2len = row;
      const list = touched;
      touched = newTouched;
      newTouched = list;
      nTouched = nNew;
      nNew = 0;
    }
    for (let x = 0; x < nTouched; x++) j2len[touched[x]!] = 0;
    // Extend by equal elements on both ends (nothing is junk when isjunk is None, popular ones included).
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return { a: besti, b: bestj, size: bestsize };
  }

  private readonly rows: Int32Array[] = [];
  /** b2j for the ASCII elements, by code (CPython's dict lookup, without hashing). */
  private b2jAscii: (number[] | undefined)[] | null = null;

  private asciiIndex(): (number[] | undefined)[] {
    const index: (number[] | undefined)[] = new Array(128).fill(undefined);
    for (const [elt, idxs] of this.b2j) if (elt < 128) index[elt] = idxs;
    return index;
  }
  /** Rows of len(b) + 1 counters, reused across calls: 0 and 1 are left zeroed by every call, 2 and 3 list the entries set. */
  private scratch(k: number): Int32Array {
    return (this.rows[k] ??= new Int32Array(this.b.length + 1));
  }

  /** Matching blocks in increasing order, adjacent ones merged, ending with the sentinel (len a, len b, 0). */
  getMatchingBlocks(): Match[] {
    if (this.blocks) return this.blocks;
    const la = this.a.length,
      lb = this.b.length;
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
    let i1 = 0,
      j1 = 0,
      k1 = 0;
    for (const { a: i2, b: j2, size: k2 } of found) {
      if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
      else {
        if (k1) merged.push({ a: i1, b: j1, size: k1 });
        i1 = i2;
        j1 = j2;
        k1 = k2;
      }
    }
    if (k1) merged.push({ a: i1, b: j1, size: k1 });
    merged.push({ a: la, b: lb, size: 0 });
    this.blocks = merged;
    return merged;
  }

  /**
   * `set_seq1`: compare another `a` with the same `b`, keeping what was worked out about `b` —
   * CPython's advice for comparing one sequence against many. Takes code points.
   */
  setSeq1(a: number[]): this {
    this.a = a;
    this.blocks = null;
    return this;
  }

  /** CPython's `quick_ratio()`: an upper bound of `ratio()`, from the elements shared with multiplicity. */
  quickRatio(): number {
    if (!this.fullbcount) {
      this.fullbcount = new Map();
      for (const elt of this.b) this.fullbcount.set(elt, (this.fullbcount.get(elt) ?? 0) + 1);
    }
    // matches = Σ min(count in a, count in b), counted as CPython counts it: a's elements in turn take from b's.
    let matches = 0;
    const used = QUICK_USED;
    let wide: Map<number, number> | null = null;
    for (const elt of this.a) {
      const inB = this.fullbcount.get(elt) ?? 0;
      if (elt < 128) {
        if (used[elt]! < inB) matches++;
        used[elt]!++;
      } else {
        const u = (wide ??= new Map()).get(elt) ?? 0;
        if (u < inB) matches++;
        wide.set(elt, u + 1);
      }
    }
    for (const elt of this.a) if (elt < 128) used[elt] = 0;
    const length = this.a.length + this.b.length;
    return length ? (2 * matches) / length : 1;
  }

  /** 2·M / T, where M is the number of matched elements and T the total length; 1.0 for two empty strings. */
  ratio(): number {
    const length = this.a.length + this.b.length;
    return length ? (2 * this.matchedCount()) / length : 1;
  }

  /**
   * M: the sizes of the blocks `getMatchingBlocks` finds, summed — by the same recursion, without
   * listing, sorting or merging them (merging adjacent blocks keeps their total).
   */
  private matchedCount(): number {
    if (this.blocks) return this.blocks.reduce((sum, m) => sum + m.size, 0);
    const stack = RANGES;
    stack.length = 0;
    stack.push(0, this.a.length, 0, this.b.length);
    let total = 0;
    while (stack.length) {
      const bhi = stack.pop()!,
        blo = stack.pop()!,
        ahi = stack.pop()!,
        alo = stack.pop()!;
      const m = this.findLongestMatch(alo, ahi, blo, bhi);
      if (!m.size) continue;
      total += m.size;
      if (alo < m.a && blo < m.b) stack.push(alo, m.a, blo, m.b);
      if (m.a + m.size < ahi && m.b + m.size < bhi) stack.push(m.a + m.size, ahi, m.b + m.size, bhi);
    }
    return total;
  }
}

export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i)!;
    out.push(c);
    if (c > 0xffff) i++;
  }
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
  let la = 0,
    lb = 0,
    matches = 0;
  for (const ch of b) {
    const c = ch.codePointAt(0)!;
    avail.set(c, (avail.get(c) ?? 0) + 1);
    lb++;
  }
  for (const ch of a) {
    const c = ch.codePointAt(0)!;
    la++;
    const n = avail.get(c) ?? 0;
    if (n > 0) {
      matches++;
      avail.set(c, n - 1);
    }
  }
  const length = la + lb;
  return length ? (2 * matches) / length : 1;
}
