import { parseAnswer } from '../../core/scoring/paper/answer.ts';
import { asText } from './common.ts';
import { parseFreeText } from './freeText.ts';
import { readPath } from './runner.ts';

/** A model's answer to one evaluation prompt, as a CapNav result item's `result` holds it. */
export interface ReplyResult {
  /** As the model wrote it (a string, or a JSON boolean); the scorers read it. */
  answer: string | boolean;
  path: string[];
  reason: string;
}

export type ReadReply = { kind: 'answer'; result: ReplyResult; form: 'json' | 'free-text' } | { kind: 'unreadable'; why: string };

/**
 * Every step of reading a reply is linear in its length: a reply is untrusted text up to the
 * reply cap (1 MB), and a pattern that backtracks (`\s*\n\s*` over 600,000 spaces, a lazy
 * `<think>…` or ``` that never closes) or a JSON parse per bracket once kept run-model busy for
 * minutes past its time limit (issue 25 §5).
 */
const THINK_OPEN = /<think>/gi,
  THINK_CLOSE = /<\/think>/gi;

/** The text without its `<think>…</think>` parts (an unclosed one is left as it is). */
function withoutThinking(text: string): string {
  let out = '',
    at = 0;
  for (;;) {
    THINK_OPEN.lastIndex = at;
    const open = THINK_OPEN.exec(text);
    if (!open) break;
    THINK_CLOSE.lastIndex = open.index + open[0].length;
    const close = THINK_CLOSE.exec(text);
    if (!close) break;
    out += text.slice(at, open.index);
    at = close.index + close[0].length;
  }
  return out + text.slice(at);
}

/** The contents of ``` fences, paired in order (an opener's language tag and line end left out). */
function fenced(text: string): string[] {
  const out: string[] = [];
  for (let open = text.indexOf('```'); open >= 0;) {
    let from = open + 3;
    while (from < text.length && /[a-zA-Z]/.test(text[from]!)) from++;
    while (text[from] === ' ' || text[from] === '\t') from++;
    if (text[from] === '\r') from++;
    if (text[from] === '\n') from++;
    const close = text.indexOf('```', from);
    if (close < 0) break;
    out.push(text.slice(from, close));
    open = text.indexOf('```', close + 3);
  }
  return out;
}

/** Whitespace around line breaks made one space (what `\s*\n\s*` did, without its backtracking). */
const oneLine = (text: string): string =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(' ');

/** A JSON answer is a few hundred characters: a bracketed part past this is not parsed. */
const MAX_CANDIDATE = 64 * 1024;

/**
 * Read a model's reply to the evaluation prompt (CapNav B.1). Accepted, in this order:
 * - the JSON B.1 asks for, `[{"question", "agent", "result": {"answer", "path", "reason"}}]`,
 *   also as one object, as the bare `{"answer", "path", "reason"}`, inside a ``` fence, after
 *   `<think>…</think>` or among prose (the first JSON value that holds an answer is read); when the
 *   array holds several items, the one for `agent` is read;
 * - the older one-line form, `Answer: (A) True | Path: a -> b | Reason: …` (its answer read as
 *   yes or no where it says so clearly, otherwise kept as written).
 * The answer is kept as written (the scorers interpret it, each its own way), the path as a list
 * of strings (a string path is split at its arrows or commas). A reply with neither is unreadable.
 */
export function readModelReply(content: string, agent?: string): ReadReply {
  const text = withoutThinking(content).trim();
  if (text === '') return { kind: 'unreadable', why: 'the reply is empty' };
  for (const candidate of jsonCandidates(text)) {
    const result = resultIn(candidate, agent);
    if (result) return { kind: 'answer', result, form: 'json' };
  }
  const ft = parseFreeText(oneLine(text));
  if (ft && ft.answer.trim() !== '') {
    return { kind: 'answer', result: { answer: parseAnswer(ft.answer) ?? ft.answer.trim(), path: ft.path, reason: ft.reason }, form: 'free-text' };
  }
  return { kind: 'unreadable', why: 'no JSON answer (an "answer" field) and no "Answer:" line in the reply' };
}

/** JSON values in the text: the whole text, each fenced block, then each balanced [...] or {...} from its first bracket. */
function* jsonCandidates(text: string): Generator<unknown> {
  const tried = new Set<string>();
  const attempt = function* (s: string, whole = false): Generator<unknown> {
    const t = s.trim();
    if (t === '' || (!whole && t.length > MAX_CANDIDATE) || tried.has(t)) return;
    tried.add(t);
    try {
      yield JSON.parse(t);
    } catch {
      /* not JSON as a whole */
    }
  };
  yield* attempt(text, true);
  for (const f of fenced(text)) yield* attempt(f);
  // Each start scans to its closing bracket: a cap keeps a megabyte of brackets from taking long.
  let starts = 0;
  for (let i = 0; i < text.length && starts < MAX_STARTS; i++) {
    const c = text[i];
    if (c !== '[' && c !== '{') continue;
    starts++;
    const end = balancedEnd(text, i);
    if (end > i) yield* attempt(text.slice(i, end + 1));
  }
}

/** Brackets tried as the start of a JSON value among prose. */
const MAX_STARTS = 64;

/**
 * Index of the bracket closing the one at `start` (strings and escapes respected), or -1. The open
 * brackets wait on a byte stack; once more are open than characters are left, none can close.
 */
function balancedEnd(text: string, start: number): number {
  const stack = new Uint8Array(text.length - start);
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      stack[depth++] = c === OPEN_SQUARE ? CLOSE_SQUARE : CLOSE_CURLY;
      if (depth > text.length - 1 - i) return -1;
    } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) {
      if (depth === 0 || stack[--depth] !== c) return -1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

const BACKSLASH = 0x5c,
  QUOTE = 0x22,
  OPEN_SQUARE = 0x5b,
  CLOSE_SQUARE = 0x5d,
  OPEN_CURLY = 0x7b,
  CLOSE_CURLY = 0x7d;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The answer in a parsed JSON value, or null when it holds none. */
function resultIn(value: unknown, agent: string | undefined): ReplyResult | null {
  if (Array.isArray(value)) {
    const items = value.filter(isObject);
    const mine = agent === undefined ? undefined : items.find((it) => asText(it.agent).trim().toUpperCase() === agent.toUpperCase());
    for (const it of mine ? [mine, ...items] : items) {
      const r = resultIn(it, agent);
      if (r) return r;
    }
    return null;
  }
  if (!isObject(value)) return null;
  const inner = value.result;
  if (isObject(inner)) return fields(inner);
  if (typeof inner === 'string') {
    const ft = parseFreeText(inner);
    if (ft && ft.answer.trim() !== '') return { answer: parseAnswer(ft.answer) ?? ft.answer.trim(), path: ft.path, reason: ft.reason };
  }
  return fields(value);
}

function fields(o: Record<string, unknown>): ReplyResult | null {
  const a = o.answer;
  const answer = typeof a === 'boolean' ? a : typeof a === 'string' && a.trim() !== '' ? a : null;
  if (answer === null) return null;
  return { answer, path: readPath(o.path), reason: asText(o.reason) };
}
