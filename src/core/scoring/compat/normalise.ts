import { PY_SPACE_CLASS, pyStrip } from './pyText.ts';

/** `string.punctuation`: the 32 ASCII punctuation characters, underscore included. */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;
const SPACE_RUN = new RegExp(`[${PY_SPACE_CLASS}]+`, 'g');
/** Strings that are printable ASCII without punctuation or repeated spaces need no work beyond `toLowerCase`. */
const SIMPLE = /^[0-9A-Za-z]+(?: [0-9A-Za-z]+)*$/;

/**
 * The released scorer's `norm_text`, used for questions, node names and path tokens alike:
 * `s.lower().strip()`, then the ASCII punctuation of `string.punctuation` deleted (underscore
 * too: `node_12` becomes `node12`; other punctuation such as `’` or `–` stays), then runs of
 * whitespace made one space — with no strip afterwards, so `"Hall -"` normalises to `"hall "`.
 */
export function normaliseText(s: string): string {
  if (SIMPLE.test(s)) return s.toLowerCase();
  return pyStrip(s.toLowerCase()).replace(ASCII_PUNCTUATION, '').replace(SPACE_RUN, ' ');
}

/** Positions in code points, as Python's `re` reports them. */
export interface WordHit {
  start: number;
  end: number;
}

/** Python's `\w` for `str` patterns: letters, numbers and underscore (not combining marks). */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isWordAt(s: string, i: number): boolean {
  if (i < 0 || i >= s.length) return false;
  const c = s.charCodeAt(i);
  if (c < 0x80) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  // The character ending or starting at i, whole (a surrogate pair read from either half).
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
    const h = s.charCodeAt(i - 1);
    if (h >= 0xd800 && h <= 0xdbff) return WORD_CHAR.test(s.slice(i - 1, i + 1));
  }
  return WORD_CHAR.test(String.fromCodePoint(s.codePointAt(i)!));
}

/** `\b` at UTF-16 offset i: a word character on exactly one side. */
function boundary(s: string, i: number): boolean {
  return isWordAt(s, i - 1) !== isWordAt(s, i);
}

/**
 * Every occurrence of `word` in `text` between word boundaries, left to right and
 * non-overlapping, as `re.finditer(r"\b" + re.escape(word) + r"\b", text)` finds them
 * (Unicode `\b`; `word` may start or end with a space or punctuation that `norm_text` keeps).
 */
export function wordHits(text: string, word: string, first = false): WordHit[] {
  const out: WordHit[] = [];
  if (!word) return out;
  let from = 0;
  for (;;) {
    const i = text.indexOf(word, from);
    if (i < 0) break;
    const end = i + word.length;
    if (boundary(text, i) && boundary(text, end)) {
      out.push({ start: i, end });
      if (first) break;
      from = end;
    } else from = i + 1;
  }
  return hasSurrogates(text) ? out.map((h) => ({ start: cpIndex(text, h.start), end: cpIndex(text, h.end) })) : out;
}

function hasSurrogates(s: string): boolean {
  return /[\ud800-\udfff]/.test(s);
}

/** Code-point index of a UTF-16 offset. */
function cpIndex(s: string, offset: number): number {
  let n = 0;
  for (let i = 0; i < offset; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < offset) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
