/**
 * Values as Python's `json.loads` gives them to the released scorer. The scorer stringifies
 * answers and path items with `str()`, and Python prints `1` and `1.0` differently, so integers
 * and floats must stay distinct: JSON integers become `bigint` (exact, like Python's int),
 * JSON numbers with a fraction or exponent become `number` (Python float). Objects are `Map`s
 * so key order is insertion order exactly as in a Python dict (a JS object would move
 * integer-like keys first) and a key such as `__proto__` is just a key — or, for text that
 * `JSON.parse` reads exactly, its objects wrapped (`NativeDict`).
 */
export type PyValue = null | boolean | bigint | number | string | PyValue[] | PyDict;
export type PyDict = Map<string, PyValue> | NativeDict;

export function isDict(v: PyValue | undefined): v is PyDict {
  return v instanceof Map || v instanceof NativeDict;
}

/**
 * A dict as `JSON.parse` made it, read as Python's would be, when that is exact: no number in it
 * is integral (those are floats either way) and no key is a whole number (so the object keeps the
 * keys in their order). Values are wrapped as they are asked for, so a file's items cost no copy.
 */
export class NativeDict {
  constructor(private readonly o: Readonly<Record<string, unknown>>) {}

  get(k: string): PyValue | undefined {
    return Object.hasOwn(this.o, k) ? fromChecked(this.o[k]) : undefined;
  }

  has(k: string): boolean {
    return Object.hasOwn(this.o, k);
  }

  get size(): number {
    return Object.keys(this.o).length;
  }

  keys(): IterableIterator<string> {
    return Object.keys(this.o)[Symbol.iterator]();
  }

  *[Symbol.iterator](): IterableIterator<[string, PyValue]> {
    for (const k of Object.keys(this.o)) yield [k, fromChecked(this.o[k])];
  }
}

/** A value of checked JSON.parse output as a Python value: arrays of plain values are used as they are. */
export function fromChecked(v: unknown): PyValue {
  if (v === null || typeof v !== 'object') return v as PyValue;
  if (Array.isArray(v)) {
    for (const x of v) if (x !== null && typeof x === 'object') return v.map(fromChecked);
    return v as PyValue[];
  }
  return new NativeDict(v as Record<string, unknown>);
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
