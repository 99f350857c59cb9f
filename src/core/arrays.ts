/**
 * Append many items: `target.push(...items)` passes every item as an argument and overflows the
 * call stack beyond ~100,000 (a prediction file can hold that many records).
 */
export function append<T>(target: T[], items: readonly T[]): T[] {
  for (const item of items) target.push(item);
  return target;
}
