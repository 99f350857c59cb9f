/**
 * UTF-8 output written straight into byte blocks, for the per-record JSONL: 50,000 lines of about
 * a kilobyte each, built as strings, cost a rope of pieces per line, a flattening and an encoding
 * each, and most of the run's garbage. Here each piece is encoded once, where it goes.
 */
export class ByteSink {
  private readonly blocks: Uint8Array[] = [];
  private buf: Uint8Array;
  private at = 0;
  private done = 0;

  /**
   * `blockSize`: bytes per block. With `drain`, a full block is handed to it and then reused
   * (the output streams out in blocks); without, blocks are kept until `bytes()`.
   */
  constructor(
    private readonly blockSize = 1 << 20,
    private readonly drain?: (block: Uint8Array) => void,
  ) {
    this.buf = new Uint8Array(blockSize);
  }

  /** Forget what was written (a sink reused for small pieces). */
  clear(): void {
    this.blocks.length = 0;
    this.done = 0;
    this.at = 0;
  }

  /** Hand what is in the block to `drain` (at the end of a streamed output). */
  flush(): void {
    if (this.drain && this.at) {
      this.drain(this.buf.subarray(0, this.at));
      this.done += this.at;
      this.at = 0;
    }
  }

  /** Bytes written so far. */
  get length(): number {
    return this.done + this.at;
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    if (this.drain) {
      this.flush();
      if (n > this.buf.length) this.buf = new Uint8Array(n);
      return;
    }
    this.blocks.push(this.buf.subarray(0, this.at));
    this.done += this.at;
    this.buf = new Uint8Array(Math.max(this.blockSize, n));
    this.at = 0;
  }

  /** Bytes encoded beforehand (the fixed parts of a line). */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    if (this.at + n > this.buf.length) this.room(n);
    const buf = this.buf;
    if (n > 32) {
      buf.set(bytes, this.at);
      this.at += n;
      return;
    }
    let at = this.at;
    for (let i = 0; i < n; i++) buf[at++] = bytes[i]!;
    this.at = at;
  }

  /** A non-negative integer's digits. */
  int(n: number): void {
    if (n < 10) {
      this.byte(48 + n);
      return;
    }
    this.text(String(n));
  }

  /** Many bytes at once (another sink's output). */
  append(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  byte(b: number): void {
    if (this.at >= this.buf.length) this.room(1);
    this.buf[this.at++] = b;
  }

  /** Text as it is, in UTF-8 (a lone surrogate as U+FFFD, which it never is here: see `str`). */
  text(s: string): void {
    this.room(3 * s.length);
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        buf[at++] = c;
        continue;
      }
      at = putWide(buf, at, s, i, c, false);
      if (pairAt(s, i, c)) i++;
    }
    this.at = at;
  }

  /**
   * A string as `json.dumps(s, ensure_ascii=False)` writes it: `"` and `\` escaped, the control
   * characters below U+0020 as `\n`, `\t`… or `\u00XX`, everything else as it is. A lone
   * surrogate, which Python would write and then fail to encode, is written `\udXXX`.
   */
  str(s: string): void {
    this.room(6 * s.length + 2);
    const buf = this.buf;
    let at = this.at;
    buf[at++] = 0x22;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
          buf[at++] = c;
          continue;
        }
        buf[at++] = 0x5c;
        const short = SHORT_ESCAPE[c];
        if (short !== undefined) {
          buf[at++] = short;
          continue;
        }
        buf[at++] = 0x75;
        buf[at++] = 0x30;
        buf[at++] = 0x30;
        buf[at++] = HEX[c >> 4]!;
        buf[at++] = HEX[c & 15]!;
        continue;
      }
      at = putWide(buf, at, s, i, c, true);
      if (pairAt(s, i, c)) i++;
    }
    buf[at++] = 0x22;
    this.at = at;
  }

  /** Everything written, in one array (a view of the sink's block while there is only one). */
  bytes(): Uint8Array {
    if (this.blocks.length === 0) return this.buf.subarray(0, this.at);
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const b of [...this.blocks, this.buf.subarray(0, this.at)]) {
      out.set(b, at);
      at += b.length;
    }
    return out;
  }
}

const HEX = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** Whether `s[i]` (code `c`) starts a surrogate pair: the pair is one character, written whole. */
const pairAt = (s: string, i: number, c: number): boolean => {
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
};

/**
 * The UTF-8 of the non-ASCII character at `s[i]` (code `c` ≥ 0x80) into `buf` at `at`; the new
 * position. A surrogate pair is written whole (the caller steps over its second half: `pairAt`);
 * a lone surrogate as U+FFFD, or as the escape `\udXXX` when `escapeLone` (JSON output).
 * Shared by `text` and `str`, whose ASCII loops stay inline.
 */
function putWide(buf: Uint8Array, at: number, s: string, i: number, c: number, escapeLone: boolean): number {
  if (c < 0x800) {
    buf[at++] = 0xc0 | (c >> 6);
    buf[at++] = 0x80 | (c & 0x3f);
    return at;
  }
  if (c >= 0xd800 && c <= 0xdfff) {
    if (pairAt(s, i, c)) {
      const p = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00);
      buf[at++] = 0xf0 | (p >> 18);
      buf[at++] = 0x80 | ((p >> 12) & 0x3f);
      buf[at++] = 0x80 | ((p >> 6) & 0x3f);
      buf[at++] = 0x80 | (p & 0x3f);
      return at;
    }
    if (escapeLone) {
      buf[at++] = 0x5c;
      buf[at++] = 0x75;
      buf[at++] = HEX[c >> 12]!;
      buf[at++] = HEX[(c >> 8) & 15]!;
      buf[at++] = HEX[(c >> 4) & 15]!;
      buf[at++] = HEX[c & 15]!;
      return at;
    }
    c = 0xfffd;
  }
  buf[at++] = 0xe0 | (c >> 12);
  buf[at++] = 0x80 | ((c >> 6) & 0x3f);
  buf[at++] = 0x80 | (c & 0x3f);
  return at;
}
/** `\"`, `\\` and the short escapes of the control characters, by code. */
const SHORT_ESCAPE: (number | undefined)[] = [];
for (const [c, e] of [
  [0x22, '"'],
  [0x5c, '\\'],
  [0x0a, 'n'],
  [0x0d, 'r'],
  [0x09, 't'],
  [0x08, 'b'],
  [0x0c, 'f'],
] as const)
  SHORT_ESCAPE[c] = e.charCodeAt(0);

/** UTF-8 of a fixed piece of output. */
export function utf8(s: string): Uint8Array {
  const sink = new ByteSink(3 * s.length + 8);
  sink.text(s);
  return sink.bytes().slice();
}

/**
 * Text of UTF-8 bytes. Every place the core runs (browsers, workers, Node) has TextDecoder; it is
 * declared here because the core compiles against the language alone.
 */
declare const TextDecoder: new () => { decode(bytes: Uint8Array): string };
const decoder = new TextDecoder();
export const fromUtf8 = (bytes: Uint8Array): string => decoder.decode(bytes);
