import type { FormatErrorType } from './types.ts';
import { PY_SPACE_CLASS, pyStr, pyStrip } from './pyText.ts';
import { isDict, pyTruthy, type PyDict, type PyValue } from './pyValue.ts';

/** Answers that mean yes after `.strip().lower()`; anything else means no. */
const YES = new Set(['yes', 'true', 'a', '(a)']);

/**
 * The released scorer's patterns, in Python notation:
 * `Answer:\s*\((A|B)\)\s*(True|False)\s*\|\s*Path:\s*(.+)` (searched, IGNORECASE), the path cut
 * at `\s*\|\s*(?:Fail|Reason)\s*:` and split on `\s*(?:->|→)\s*`; the reason (for RV) is
 * `\|\s*(fail|reason)\s*:\s*(.+)$`. Spelled out for JavaScript: `\s` is Python's whitespace, `.`
 * is anything but "\n", and Python's IGNORECASE also lets `ı` and `İ` match `i` (JavaScript's
 * Unicode case folding covers the other letters used here, such as `ſ` for `s`).
 */
const S = `[${PY_SPACE_CLASS}]`;
const I = '[iIıİ]';
const LINE = new RegExp(`Answer:${S}*\\((A|B)\\)${S}*(True|False)${S}*\\|${S}*Path:${S}*([^\\n]+)`, 'iu');
const REASON_CUT = new RegExp(`${S}*\\|${S}*(?:Fa${I}l|Reason)${S}*:`, 'iu');
const ARROW = new RegExp(`${S}*(?:->|→)${S}*`, 'u');
const REASON = new RegExp(`\\|${S}*(fa${I}l|reason)${S}*:${S}*([^\\n]+)$`, 'iu');
const THINK = /<think>[\s\S]*?<\/think>/g;

export type ParsedAnswer = { ok: true; answer: 'yes' | 'no'; tokens: string[]; raw: string } | { ok: false; formatError: FormatErrorType };

/**
 * §2 step 2, as `records_from_output_file` and `parse_vlm_output_text` do it: the item's
 * `result` object (anything else counts as `{}`) gives `answer` (`str(answer or "")`, stripped,
 * lowercased: yes iff `yes`, `true`, `a` or `(a)`) and `path` (only a list counts; each item
 * `str()`-ed). They are rebuilt into `Answer: (A) True | Path: p1 -> p2` and parsed back: an
 * empty path leaves nothing after "Path:" (`cannot_parse_answer_path`), a yes with fewer than two
 * path entries is `yes_without_path`. The reason is not part of the line.
 */
export function parseItemAnswer(item: PyDict): ParsedAnswer {
  let inner = item.get('result');
  if (!isDict(inner)) inner = undefined;
  const answer = inner?.get('answer');
  const yes = YES.has(pyStrip(answer !== undefined && pyTruthy(answer) ? pyStr(answer) : '').toLowerCase());
  const items = pathItems(inner?.get('path'));
  if (items.length > 0 && items.every(plainItem)) {
    // The line parses back to these very items, and there is no reason in it to find.
    if (yes && items.length < 2) return { ok: false, formatError: 'yes_without_path' };
    return { ok: true, answer: yes ? 'yes' : 'no', tokens: items, raw: '' };
  }
  return parseAnswerLine(answerLine(yes, items));
}

/**
 * A path item the line round trip gives back unchanged: not empty, no whitespace at either end
 * (which the split and strips would take), and none of "->", "→", "|", a newline or "<think>"
 * (which would split it, cut the path or end the line).
 */
const NOT_PLAIN = new RegExp(`->|→|\\||\\n|<think>|^[${PY_SPACE_CLASS}]|[${PY_SPACE_CLASS}]$`);
function plainItem(item: string): boolean {
  return item !== '' && !NOT_PLAIN.test(item);
}

export function answerLine(yes: boolean, path: readonly string[]): string {
  return `Answer: ${yes ? '(A) True' : '(B) False'} | Path: ${path.join(' -> ')}`;
}

export function parseAnswerLine(output: string): ParsedAnswer {
  if (pyStrip(output) === '') return { ok: false, formatError: 'empty_output' };
  const cleaned = pyStrip(output.includes('<think>') ? output.replace(THINK, '') : output);
  const m = LINE.exec(cleaned);
  if (!m) return { ok: false, formatError: 'cannot_parse_answer_path' };
  const answer = m[2]!.toLowerCase() === 'true' ? 'yes' : 'no';
  let path = pyStrip(m[3]!);
  if (path.includes('|')) path = pyStrip(path.split(REASON_CUT, 1)[0]!);
  const tokens: string[] = [];
  for (const piece of path.split(ARROW)) {
    const t = pyStrip(piece);
    if (t) tokens.push(t);
  }
  if (answer === 'yes' && tokens.length < 2) return { ok: false, formatError: 'yes_without_path' };
  return { ok: true, answer, tokens, raw: cleaned };
}

/** `extract_vlm_reason_from_raw`: what follows the first `| Fail:` or `| Reason:` that runs to the end; "" when none. */
export function reasonIn(raw: string): string {
  if (!raw.includes('|')) return '';
  const m = REASON.exec(raw);
  return m ? pyStrip(m[2]!) : '';
}

/** `inner.get("path") or []`, only a list counting, each item `str()`-ed (a list of strings as it is). */
function pathItems(path: PyValue | undefined): string[] {
  if (!Array.isArray(path)) return [];
  for (const item of path) if (typeof item !== 'string') return path.map(pyStr);
  return path as string[];
}
