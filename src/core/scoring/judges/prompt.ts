import type { JudgeRequest } from './types.ts';

/**
 * The RV judge prompt, after CapNav appendix C.1. Bump PROMPT_VERSION whenever the wording
 * changes: it is part of every cache key, so old verdicts are not reused for a new prompt.
 */
export const PROMPT_VERSION = 'capnav-rv-1';

export const SYSTEM_PROMPT = `You are evaluating whether a navigation system's reasoning is correct.

You are given:
1. A system-generated explanation of why a path is not traversable for an agent.
2. The ground-truth failure notes of the edges along that path that the agent cannot traverse.

Your task:
- Determine if the system's reasoning correctly identifies or aligns with the actual traversability issues.
- Exact wording is not required; conceptual correctness is sufficient.
- Grant credit if the reasoning identifies some but not all issues.

Respond with JSON only, in the form:
{"correct": true or false, "explanation": "Brief explanation of why the reasoning is correct or incorrect"}`;

export function userPrompt(req: JudgeRequest): string {
  const notes = req.notes.length ? req.notes.map((n) => `- ${n}`).join('\n') : '- (no edge on the path is labelled not traversable)';
  return `Agent: ${req.agent}\n\nSystem reasoning:\n${JSON.stringify(req.reason)}\n\nGround-truth failure notes:\n${notes}`;
}

/**
 * The JSON object a judge's reply holds: models wrap it in code fences or add a sentence around
 * it, so the text from the first `{` to the last `}` is read; anything else is unreadable, with why.
 */
export function replyObject(text: string): { object: Record<string, unknown> } | { unreadable: string } {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return { unreadable: 'the reply holds no JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return { unreadable: "the reply's JSON does not parse" };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { unreadable: 'the reply is not a JSON object' };
  return { object: value as Record<string, unknown> };
}

/**
 * Read the judge's verdict from its reply text. Models wrap JSON in code fences or add a sentence
 * around it, so the first {...} object in the text is taken; `correct` must be a boolean (or the
 * strings "true"/"false"). Anything else is unreadable and reported, never guessed.
 */
export function parseVerdictText(text: string): { correct: boolean; explanation?: string } | { unreadable: string } {
  const reply = replyObject(text);
  if ('unreadable' in reply) return reply;
  const obj = reply.object;
  const c = obj.correct;
  const correct = typeof c === 'boolean' ? c : c === 'true' ? true : c === 'false' ? false : null;
  if (correct === null) return { unreadable: 'the reply has no boolean "correct"' };
  return typeof obj.explanation === 'string' ? { correct, explanation: obj.explanation } : { correct };
}
