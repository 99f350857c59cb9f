/**
 * The JSON list in a model's reply, read leniently where models are sloppy and strictly where it
 * matters: a ```json fence (or text around the list) is tolerated; a list that does not parse
 * whole is cut into its elements, each parsed on its own, so one broken task (a missing comma, a
 * reply cut off by the token limit) is reported by its number and the others are kept.
 */
export type ReplyElement = { ok: true; value: unknown } | { ok: false; error: string };

export type ReplyList = { ok: true; elements: ReplyElement[]; notes: string[] } | { ok: false; error: string };

/** The contents of the first fenced block (```json … ``` or ``` … ```), or the text itself. */
function unfence(text: string): { body: string; fenced: boolean } {
  const m = /```[ \t]*(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)(?:```|$)/.exec(text);
  return m ? { body: m[1]!.trim(), fenced: true } : { body: text.trim(), fenced: false };
}

const parse = (s: string): { ok: true; value: unknown } | { ok: false; error: string } => {
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
};

/** The task list of a parsed reply: a list, or an object holding one under `tasks` or `questions`. */
function listOf(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    for (const k of ['tasks', 'questions']) {
      const v = (value as Record<string, unknown>)[k];
      if (Array.isArray(v)) return v;
    }
  }
  return null;
}

export function readReplyList(content: string): ReplyList {
  const { body, fenced } = unfence(content);
  const notes: string[] = [];
  if (body === '') return { ok: false, error: 'the reply is empty' };
  const whole = parse(body);
  if (whole.ok) {
    const list = listOf(whole.value);
    if (!list) return { ok: false, error: 'the reply is JSON but not a list of tasks (a JSON array, or an object with a "tasks" array)' };
    return { ok: true, elements: list.map((value) => ({ ok: true, value })), notes };
  }
  // Text around the list ("Here are the tasks: [...]"): read from the first [ on.
  const start = body.indexOf('[');
  if (start < 0) return { ok: false, error: `the reply is not JSON (${whole.error})` };
  // An object holding the list (`{"tasks": [...]}`) is not text around it.
  const wrapped = /^\{\s*"(?:tasks|questions)"\s*:\s*$/.test(body.slice(0, start));
  if (start > 0 && !fenced && !wrapped) notes.push('text before the JSON list was ignored');
  const split = splitElements(body, start);
  if (split.trailing && !(wrapped && split.after.trim() === '}')) notes.push('text after the JSON list was ignored');
  if (split.elements.length === 0) return { ok: false, error: `the reply is not JSON (${whole.error})` };
  const elements = split.elements.map((chunk, i): ReplyElement => {
    const last = i === split.elements.length - 1;
    const r = parse(chunk);
    if (r.ok) return r;
    return { ok: false, error: last && split.unterminated ? `not valid JSON: the reply ends inside it (cut off?)` : `not valid JSON (${r.error})` };
  });
  return { ok: true, elements, notes };
}

/**
 * The top-level elements of the list starting at `text[start] === '['`, as text: commas at depth
 * one separate them; strings (with escapes) are skipped. `unterminated`: the text ended before
 * the list closed; `trailing`: non-space text follows it.
 */
function splitElements(text: string, start: number): { elements: string[]; unterminated: boolean; trailing: boolean; after: string } {
  const elements: string[] = [];
  let depth = 0,
    inString = false,
    escaped = false,
    from = start + 1;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        push(text.slice(from, i));
        const after = text.slice(i + 1);
        return { elements, unterminated: false, trailing: after.trim() !== '', after };
      }
    } else if (c === ',' && depth === 1) {
      push(text.slice(from, i));
      from = i + 1;
    }
  }
  push(text.slice(from));
  return { elements, unterminated: true, trailing: false, after: '' };

  function push(chunk: string) {
    const t = chunk.trim();
    // A trailing comma before the closing bracket leaves an empty last chunk: not an element.
    if (t !== '') elements.push(t);
  }
}
