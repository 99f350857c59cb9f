import type { Stat } from '../../../core/scoring/vqa/embodied4c.ts';
import type { QaItemScore } from '../../../core/scoring/vqa/qaAnswers.ts';

export const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));
export const fmtStat = (s: Stat | undefined) =>
  !s || s.mean === null ? '–' : s.ci ? `${fmt(s.mean)} [${s.ci[0].toFixed(1)}, ${s.ci[1].toFixed(1)}]` : fmt(s.mean);

/** What the per-item table says beside the score: what was read from the reply, why it scored as it did, where it is reported. */
export function itemNote(r: QaItemScore): string {
  const parts: string[] = [];
  if (r.reply !== null && r.parsed !== undefined && r.parsed !== null) parts.push(`read ${r.parsed}`);
  if (r.tau !== undefined) parts.push(`τ ${r.tau}`);
  if (r.kind === 'freetext' && r.reply !== null && r.score !== null) parts.push('judge score');
  if (r.note) parts.push(r.note);
  if (r.reportedAs === 'general') parts.push('GEN (reported apart)');
  if (r.reportedAs === 'outside') parts.push(`${r.capability}: outside the Embodied4C capabilities`);
  return parts.join(' · ');
}

/** A FoMER figure as `score-qa` prints it: two decimals, the interval in brackets when there is one. */
export const fmtCell = (c: { value: number | null; ci?: [number, number] | undefined }) =>
  c.value === null ? '–' : c.ci ? `${fmt(c.value)} [${fmt(c.ci[0])}, ${fmt(c.ci[1])}]` : fmt(c.value);
