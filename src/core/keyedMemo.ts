/**
 * Values made once per (object, key): a cache held weakly by the object, so it goes when the object
 * does. The planner keeps per terrain its agents' maps and their blocked cells this way.
 */
export function keyedMemo<O extends object, V>(): (owner: O, key: string, make: () => V) => V {
  const all = new WeakMap<O, Map<string, V>>();
  return (owner, key, make) => {
    let byKey = all.get(owner);
    if (!byKey) {
      byKey = new Map();
      all.set(owner, byKey);
    }
    let value = byKey.get(key);
    if (value === undefined) {
      value = make();
      byKey.set(key, value);
    }
    return value;
  };
}
