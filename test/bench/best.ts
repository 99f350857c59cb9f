/** The fastest of `runs` runs of `fn` (and its last value): the figure least disturbed by the machine. */
export function best<T>(runs: number, fn: () => T): { ms: number; value: T } {
  let ms = Infinity,
    value: T | undefined;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = fn();
    ms = Math.min(ms, performance.now() - t0);
  }
  return { ms, value: value! };
}

/** The median of `xs` (the mean of the middle two when their number is even). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
