/**
 * Seeded resampling shared by the CapNav and VQA scorers. Confidence intervals must be
 * reproducible (the same seed gives the same interval on every machine and in the browser), so
 * the generator is a fixed small PRNG rather than Math.random.
 */

/** mulberry32: 32-bit state, fast, good enough for resampling indices. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BootstrapSettings {
  /** Number of resamples; 0 turns confidence intervals off. */
  resamples: number;
  seed: number;
  /** Two-sided coverage, 0.95 for 95 % intervals. */
  level: number;
}

/**
 * The most resamples a run may ask for. Intervals from 100,000 resamples are stable to far below
 * the reported 0.01; more would only cost time and memory (every resample's metrics are kept to
 * take the percentiles), and 10⁸ ran for minutes at 4 GB.
 */
export const MAX_RESAMPLES = 100_000;
/** Seeds are 32-bit (`seed >>> 0`): a larger number would silently wrap onto a smaller one. */
export const MAX_SEED = 2 ** 32 - 1;

export const NO_BOOTSTRAP: BootstrapSettings = { resamples: 0, seed: 1, level: 0.95 };

/**
 * Percentile interval of the finite values (null values are resamples where the metric was
 * undefined, e.g. no "no" answers drawn; they are left out). Null when nothing is defined.
 */
export function percentileInterval(values: readonly (number | null)[], level: number): [number, number] | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const alpha = (1 - level) / 2;
  return [quantile(xs, alpha), quantile(xs, 1 - alpha)];
}

/** Linear-interpolated quantile of sorted values (numpy's default), so intervals match common tools. */
function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos),
    hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Draw a resample of `n` indices with replacement into `into` (reused between resamples to keep
 * the bootstrap allocation-free on 100,000-record runs).
 */
export function drawIndices(rng: () => number, n: number, into: Int32Array): void {
  for (let i = 0; i < n; i++) into[i] = Math.floor(rng() * n);
}

/**
 * Bootstrap a set of named statistics over groups of items (each group is resampled within
 * itself, so a group's size never changes between resamples — see the callers for why).
 * `compute` receives one index array per group and returns the statistics; the result maps each
 * statistic to its interval.
 */
export function bootstrapIntervals<K extends string>(
  groupSizes: readonly number[],
  settings: BootstrapSettings,
  compute: (indices: readonly Int32Array[]) => Partial<Record<K, number | null>>,
): Partial<Record<K, [number, number]>> {
  if (settings.resamples <= 0) return {};
  const rng = seededRandom(settings.seed);
  const bufs = groupSizes.map((n) => new Int32Array(n));
  const samples = new Map<K, (number | null)[]>();
  for (let r = 0; r < settings.resamples; r++) {
    bufs.forEach((buf, g) => drawIndices(rng, groupSizes[g]!, buf));
    const stats = compute(bufs);
    for (const [k, v] of Object.entries(stats) as [K, number | null][]) {
      let list = samples.get(k);
      if (!list) {
        list = [];
        samples.set(k, list);
      }
      list.push(v);
    }
  }
  const out: Partial<Record<K, [number, number]>> = {};
  for (const [k, list] of samples) {
    const ci = percentileInterval(list, settings.level);
    if (ci) out[k] = ci;
  }
  return out;
}
