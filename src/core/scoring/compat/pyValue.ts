/**
 * Values as Python's `json.loads` gives them to the released scorer. The scorer stringifies
 * answers and path items with `str()`, and Python prints `1` and `1.0` differently, so integers
 * and floats must stay distinct: JSON integers become `bigint` (exact, like Python's int),
 * JSON numbers with a fraction or exponent become `number` (Python float). Objects are `Map`s
 * so key order is insertion order exactly as in a Python dict (a JS object would move
 * integer-like keys first) and a key such as `__proto__` is just a key.
 */
export type PyValue = null | boolean | bigint | number | string | PyValue[] | PyDict;
export type PyDict = Map<string, PyValue>;

export function isDict(v: PyValue | undefined): v is PyDict {
  return v instanceof Map;
}

/** Python's `bool(v)`: empty containers, zero, `None` and `""` are false; NaN is true. */
export function pyTruthy(v: PyValue | undefined): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  return v.size > 0;
}
