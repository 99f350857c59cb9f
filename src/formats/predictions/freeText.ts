/**
 * The older one-line free-text answer form of CapNav model outputs:
 *
 *     Answer: (A) True | Path: node_1 -> node_3 -> node_5 | Reason: the agent cannot climb stairs
 *
 * Accepted: fields `Answer`, `Path`, `Reason` (any case, any order, `|`-separated; only Answer is
 * required), plus optional `Scene`, `Agent`, `Question`, `Model` fields that identify the record
 * when it stands alone on a line of a .txt file. A field's value runs to the next `| Key:`, so a
 * reason may itself contain `|`. Path tokens are separated by `->`, `→` or `=>`; a path without
 * arrows is split on commas. Tokens are kept as written (ids or names; resolved by the scorer).
 */
export interface FreeTextFields {
  answer: string;
  path: string[];
  reason: string;
  scene?: string;
  agent?: string;
  question?: string;
  model?: string;
}

const KEYS = ['answer', 'path', 'reason', 'scene', 'agent', 'question', 'model'] as const;
const KEY = new RegExp(`(?:^|\\|)\\s*(${KEYS.join('|')})\\s*:`, 'gi');

/** Read one free-text answer; null when it has no `Answer:` field. */
export function parseFreeText(text: string): FreeTextFields | null {
  const marks: { key: string; start: number; valueStart: number }[] = [];
  for (const m of text.matchAll(KEY)) marks.push({ key: m[1]!.toLowerCase(), start: m.index!, valueStart: m.index! + m[0].length });
  const values = new Map<string, string>();
  marks.forEach((m, i) => {
    const end = i + 1 < marks.length ? marks[i + 1]!.start : text.length;
    if (!values.has(m.key)) values.set(m.key, text.slice(m.valueStart, end).trim());
  });
  const answer = values.get('answer');
  if (answer === undefined) return null;
  const out: FreeTextFields = { answer, path: splitPath(values.get('path') ?? ''), reason: values.get('reason') ?? '' };
  for (const k of ['scene', 'agent', 'question', 'model'] as const) {
    const v = values.get(k);
    if (v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

export function splitPath(text: string): string[] {
  const t = text.trim().replace(/^\[|\]$/g, '');
  if (t === '') return [];
  const parts = /->|→|=>/.test(t) ? t.split(/\s*(?:->|→|=>)\s*/) : t.split(/\s*,\s*/);
  return parts.map((p) => p.trim().replace(/^["']|["']$/g, '')).filter((p) => p !== '');
}
