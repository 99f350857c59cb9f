import type { FormatErrorType } from './types.ts';
import { PY_SPACE_CLASS, pyStr, pyStrip } from './pyText.ts';
import { isDict, type PyDict, type PyValue } from './pyValue.ts';

/** Answers that mean yes after `str(answer).strip().lower()`; anything else means no. */
const YES = new Set(['yes', 'true', 'a', '(a)']);

/**
 * The released scorer's answer line pattern, in Python notation
 * `Answer:\s*\(([AB])\)\s*(True|False)\s*\|\s*Path:\s*([^|\n]*)`, searched anywhere in the line,
 * case-sensitive. The path ends at the first `|` (where the older free-text format starts its
 * `| Reason:` part) or newline. `\s` is Python's whitespace, spelled out because JavaScript's differs.
 */
const WS = `[${PY_SPACE_CLASS}]*`;
const LINE = new RegExp(`Answer:${WS}\\(([AB])\\)${WS}(True|False)${WS}\\|${WS}Path:${WS}([^|\\n]*)`);

export type ParsedAnswer =
  | { ok: true; yes: boolean; tokens: string[] }
  | { ok: false; formatError: FormatErrorType };

/**
 * §2 step 2. The item's answer and path are turned into the text line
 * `Answer: (A) True | Path: p1 -> p2` and parsed back, which is where the released scorer's
 * format errors come from. The reason is not part of the line: it is dropped here.
 *
 * Where §2 is silent:
 * - Answer and path are read from the item's `result` object when it is one (the runner's layout),
 *   else from the item itself.
 * - A missing answer is ""; a non-string answer is `str()`-ed, so JSON `true` ("True") means yes
 *   and `null` ("None"), numbers, lists mean no.
 * - The path is iterated as Python iterates it: a list's items, a string's characters, an
 *   object's keys, each `str()`-ed (so `1.0` stays "1.0"); a missing path, `null`, a number or a
 *   boolean give no items.
 * - After the pattern matches, the path text is stripped; empty text is unparseable. It is split
 *   on "->", each piece stripped, empty pieces dropped: a path item containing "->" becomes two
 *   tokens, and a path of only empty items is unparseable.
 * - `yes_without_path` is judged on the tokens after the re-parse (fewer than two).
 */
export function parseItemAnswer(item: PyDict): ParsedAnswer {
  const result = item.get('result');
  const source = isDict(result) ? result : item;
  const answer = source.get('answer');
  const yes = YES.has(pyStrip(answer === undefined ? '' : pyStr(answer)).toLowerCase());
  const line = answerLine(yes, pathItems(source.get('path')));
  const parsed = parseAnswerLine(line);
  if (!parsed) return { ok: false, formatError: 'cannot_parse_answer_path' };
  if (parsed.yes && parsed.tokens.length < 2) return { ok: false, formatError: 'yes_without_path' };
  return { ok: true, ...parsed };
}

export function answerLine(yes: boolean, path: readonly string[]): string {
  return `Answer: ${yes ? '(A) True' : '(B) False'} | Path: ${path.join(' -> ')}`;
}

export function parseAnswerLine(line: string): { yes: boolean; tokens: string[] } | null {
  const m = LINE.exec(line);
  if (!m) return null;
  const body = pyStrip(m[3]!);
  if (!body) return null;
  const tokens = body.split('->').map(pyStrip).filter((t) => t !== '');
  return { yes: m[1] === 'A', tokens };
}

function pathItems(path: PyValue | undefined): string[] {
  if (typeof path === 'string') return Array.from(path);
  if (Array.isArray(path)) return path.map(pyStr);
  if (isDict(path)) return [...path.keys()];
  return [];
}
