/**
 * Append many items: `target.push(...items)` passes every item as an argument and overflows the
 * call stack beyond ~100,000 (a prediction file can hold that many records).
 */
export function append<T>(target: T[], items: readonly T[]): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** Byte arrays one after another, in one array. */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
