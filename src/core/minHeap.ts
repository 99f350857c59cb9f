/**
 * A binary min-heap of integer ids by number key, in typed arrays (the planner's A* and the terrain's
 * hole filling push hundreds of thousands of entries a search). Ties come out in no set order.
 */
export class MinHeap {
  private keys = new Float64Array(1 << 12);
  private ids = new Int32Array(1 << 12);
  size = 0;
  /** The smallest key (valid while size > 0). */
  topKey(): number {
    return this.keys[0]!;
  }
  push(id: number, key: number): void {
    if (this.size === this.keys.length) {
      const k = new Float64Array(this.size * 2);
      k.set(this.keys);
      this.keys = k;
      const d = new Int32Array(this.size * 2);
      d.set(this.ids);
      this.ids = d;
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.keys[i] = this.keys[parent]!;
      this.ids[i] = this.ids[parent]!;
      i = parent;
    }
    this.keys[i] = key;
    this.ids[i] = id;
  }
  /** Remove the entry with the smallest key; its id. */
  pop(): number {
    const top = this.ids[0]!;
    const key = this.keys[--this.size]!,
      id = this.ids[this.size]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && this.keys[c + 1]! < this.keys[c]!) c++;
      if (this.keys[c]! >= key) break;
      this.keys[i] = this.keys[c]!;
      this.ids[i] = this.ids[c]!;
      i = c;
    }
    this.keys[i] = key;
    this.ids[i] = id;
    return top;
  }
}
