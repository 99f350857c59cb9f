/**
 * Paper-mode reading of a feasibility answer. Accepted (case, surrounding spaces and quotes,
 * and a final `.`/`!` ignored):
 * - `yes` / `no`, `y` / `n`, `true` / `false`, `feasible` / `infeasible` / `not feasible`;
 * - the option letters of the prompt, `A` = yes and `B` = no: `A`, `(A)`, `A)`, `A.`, `[A]`,
 *   optionally followed by the option's word: `(A) True`, `A: yes`, `(B) False`;
 *   a letter contradicting its word (`(A) False`) is unparseable;
 * - a sentence starting with yes or no and a comma/semicolon/full stop: `Yes, it can.`, `No; stairs`.
 * Anything else is unparseable (and scored as a wrong answer, CapNav Feas-F1).
 */
export type Answer = 'yes' | 'no';

const WORDS: Record<string, Answer> = {
  yes: 'yes',
  y: 'yes',
  true: 'yes',
  feasible: 'yes',
  no: 'no',
  n: 'no',
  false: 'no',
  infeasible: 'no',
  'not feasible': 'no',
};
const LETTERS: Record<string, Answer> = { a: 'yes', b: 'no' };
const OPTION = /^[([]?([ab])[)\].:]?(?:\s*[-:]?\s*(yes|no|true|false))?$/;
const LEADING = /^(yes|no)\s*[,;.:!-]\s*\S/;

export function parseAnswer(raw: string): Answer | null {
  const t = raw
    .trim()
    .toLowerCase()
    .replace(/^["'`]+|["'`]+$/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[.!]+$/, '')
    .trim();
  if (t === '') return null;
  const word = WORDS[t];
  if (word) return word;
  const opt = OPTION.exec(t);
  if (opt) {
    const byLetter = LETTERS[opt[1]!]!;
    if (opt[2] === undefined) return byLetter;
    return WORDS[opt[2]] === byLetter ? byLetter : null;
  }
  const lead = LEADING.exec(t);
  return lead ? WORDS[lead[1]!]! : null;
}
