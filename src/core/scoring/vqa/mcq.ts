import { bootstrapIntervals, NO_BOOTSTRAP, type BootstrapSettings } from '../bootstrap.ts';

/**
 * Multiple-choice answer parsing after MetaVQA (appendix C.2.1), in its order:
 * 1. a lone option token: the whole reply is one option letter, possibly bracketed or followed
 *    by `.`/`)`/`:` (`B`, `(b)`, `C.`);
 * 2. else the last option keyword in the reply: `option B`, `answer: B`, `answer is (B)`, or the
 *    text of an option when the question's choices are given (whole words, any case);
 * 3. else a single parenthesised letter, `(C)` (several different ones are ambiguous);
 * 4. else unparseable. A letter that is not one of the options is unparseable too ("illegal
 *    character" in MetaVQA's words).
 */
export interface McqItem {
  id: string;
  /** The model's reply. */
  reply: string;
  /** The correct option letter. */
  answer: string;
  /** Option letters (default A–D). */
  options?: readonly string[];
  /** Option texts by letter, used as keywords in step 2. */
  choices?: Readonly<Record<string, string>>;
}

/** Case matters for the letter (a capital is an option, a small "a" may be an article), so the words carry their cases. */
const KEYWORD =
  /\b(?:[Oo]ption|[Aa]nswer|[Cc]hoice|OPTION|ANSWER|CHOICE)\b(?:\s+(?:is|IS))?\s*[:=]?\s*(?:\(([A-Za-z])\)|([A-Z])(?![A-Za-z])|([a-z])(?=\s*(?:[.,;:!)]|$)))/g;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whole-word matchers of option texts, compiled once per text (a benchmark repeats its options across thousands of replies). */
const textMatchers = new Map<string, RegExp>();
function matcherOf(text: string): RegExp {
  let re = textMatchers.get(text);
  if (!re) {
    if (textMatchers.size >= 10_000) textMatchers.clear();
    re = new RegExp(`(?<![A-Za-z0-9])${escape(text)}(?![A-Za-z0-9])`, 'gi');
    textMatchers.set(text, re);
  }
  return re;
}

export function parseOption(reply: string, options: readonly string[] = ['A', 'B', 'C', 'D'], choices?: Readonly<Record<string, string>>): string | null {
  const opts = options.map((o) => o.toUpperCase());
  const valid = (l: string | undefined) => (l !== undefined && opts.includes(l.toUpperCase()) ? l.toUpperCase() : null);
  const t = reply.trim();
  const lone = /^[("'[]?\s*([A-Za-z])\s*[)"'\]]?\s*[.:)]?$/.exec(t);
  if (lone) return valid(lone[1]);

  let best: { at: number; letter: string } | null = null;
  const consider = (at: number, letter: string) => {
    if (!best || at >= best.at) best = { at, letter };
  };
  // The letter after "option/answer/choice (is)": bracketed, a capital, or a small letter that
  // ends the phrase ("answer: b."); "the answer is a dog" names no option.
  for (const m of t.matchAll(KEYWORD)) {
    const l = valid(m[1] ?? m[2] ?? m[3]);
    if (l) consider(m.index!, l);
  }
  for (const [letter, text] of Object.entries(choices ?? {})) {
    if (!text.trim() || !valid(letter)) continue;
    for (const m of t.matchAll(matcherOf(text.trim()))) consider(m.index!, letter.toUpperCase());
  }
  if (best) return (best as { letter: string }).letter;

  const paren = new Set([...t.matchAll(/\(([A-Za-z])\)/g)].map((m) => m[1]!.toUpperCase()));
  return paren.size === 1 ? valid([...paren][0]) : null;
}

export interface McqScore {
  n: number;
  correct: number;
  unparseable: number;
  /** Percentages of all items. */
  accuracy: number | null;
  failRate: number | null;
  items: { id: string; parsed: string | null; correct: boolean }[];
  ci?: { accuracy?: [number, number]; failRate?: [number, number] };
}

export function scoreMcq(items: readonly McqItem[], bootstrap: Partial<BootstrapSettings> = {}): McqScore {
  const scored = items.map((it) => {
    const parsed = parseOption(it.reply, it.options, it.choices);
    return { id: it.id, parsed, correct: parsed !== null && parsed === it.answer.trim().toUpperCase() };
  });
  const n = scored.length;
  const correct = scored.filter((s) => s.correct).length;
  const unparseable = scored.filter((s) => s.parsed === null).length;
  const out: McqScore = { n, correct, unparseable, accuracy: n ? (100 * correct) / n : null, failRate: n ? (100 * unparseable) / n : null, items: scored };
  const settings = { ...NO_BOOTSTRAP, ...bootstrap };
  if (settings.resamples > 0 && n > 0) {
    const ok = Uint8Array.from(scored, (s) => (s.correct ? 1 : 0));
    const fail = Uint8Array.from(scored, (s) => (s.parsed === null ? 1 : 0));
    out.ci = bootstrapIntervals<'accuracy' | 'failRate'>([n], settings, ([idx]) => {
      let c = 0,
        f = 0;
      for (const i of idx!) {
        c += ok[i]!;
        f += fail[i]!;
      }
      return { accuracy: (100 * c) / n, failRate: (100 * f) / n };
    });
  }
  return out;
}
