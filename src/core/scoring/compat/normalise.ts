import { pyCollapseSpaces, pyRemovePunctuation } from './pyText.ts';

/**
 * The released scorer's text normalisation, used for questions, node names and path tokens alike:
 * `" ".join(re.sub(r"[^\w\s]", "", s.lower()).split())` — lowercase, punctuation deleted (not
 * replaced by a space: "L-shaped" becomes "lshaped"), whitespace collapsed.
 * §2 says only "punctuation removed"; deleting is the literal reading. On the released questions
 * deleting and replacing give the same guesses.
 */
export function normaliseText(s: string): string {
  return pyCollapseSpaces(pyRemovePunctuation(s.toLowerCase()));
}

/** Positions in code points, as Python's `re` reports them. */
export interface WordHit {
  start: number;
  end: number;
}

/**
 * Every whole-word occurrence of `word` in `text`, left to right and non-overlapping, as
 * `re.finditer(r"\b" + re.escape(word) + r"\b", text)` finds them. Both strings are normalised,
 * so they hold only word characters and single spaces and `\b` reduces to "a space or an end".
 */
export function wordHits(text: string, word: string, first = false): WordHit[] {
  const out: WordHit[] = [];
  if (!word) return out;
  let from = 0;
  for (;;) {
    const i = text.indexOf(word, from);
    if (i < 0) break;
    const end = i + word.length;
    if ((i === 0 || text.charCodeAt(i - 1) === 32) && (end === text.length || text.charCodeAt(end) === 32)) {
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
