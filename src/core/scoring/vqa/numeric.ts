/**
 * Embodied4C's numeric answer score (eq. 2): max(0, 100·(1 − |â − a| / (τ·|a|))). τ is a
 * setting: 0.01 as eq. 2 prints it, 0.10 as the paper's judge prompt (Table 6) applies it.
 * For a = 0 the relative deviation is undefined: 100 if â = 0, else 0. A reply without a number
 * scores 0 (never "â = 0", which would reward non-answers to zero-valued questions).
 */
export const TAU_EQUATION = 0.01;
export const TAU_JUDGE_PROMPT = 0.1;

export function numericScore(predicted: number | null, truth: number, tau: number): number {
  if (predicted === null || !Number.isFinite(predicted)) return 0;
  if (truth === 0) return predicted === 0 ? 100 : 0;
  // τ = 0 accepts only the exact value (eq. 2 would divide by zero).
  if (tau <= 0) return predicted === truth ? 100 : 0;
  return Math.max(0, 100 * (1 - Math.abs(predicted - truth) / (tau * Math.abs(truth))));
}

const NUMBER = /[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+−]?\.\d+/g;

/**
 * The number a reply gives: the first number after the last "answer" (as in "Answer: 12.5 m"),
 * else the first number in the reply. Thousands separators and a Unicode minus are read; units
 * are ignored. Null when there is none.
 */
export function extractNumber(reply: string): number | null {
  const lower = reply.toLowerCase();
  const at = lower.lastIndexOf('answer');
  const tail = at >= 0 ? reply.slice(at) : reply;
  const m = tail.match(NUMBER) ?? (at >= 0 ? reply.match(NUMBER) : null);
  if (!m) return null;
  const v = Number(m[0]!.replace(/,/g, '').replace('−', '-'));
  return Number.isFinite(v) ? v : null;
}
