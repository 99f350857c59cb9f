import type { Answer, QaItem, ReviewRound } from '../../../core/vqa/item.ts';
import { reviewedContent } from '../../../core/vqa/reopen.ts';
import { textDiff } from '../../../core/vqa/trail.ts';
import { Words } from './TrailDiffView.tsx';

/** An answer in one line, so two versions can be compared word by word. */
export function answerLine(a: Answer): string {
  if (a.kind === 'mcq') return a.options.map((o) => `${o.key}${o.key === a.correct ? ' (correct)' : ''}: ${o.text}`).join(' · ');
  if (a.kind === 'yesno') return a.correct ? 'yes' : 'no';
  if (a.kind === 'numeric') return `${a.value} ${a.unit} (tolerance ${a.tolerance})`.replace(/\s+/g, ' ');
  return a.reference;
}

const categoryLine = (c: QaItem['category']) => [c.capability || '(none)', c.subcategory, c.taskType].filter(Boolean).join(' · ');
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What the reviewers made of the version they saw. */
export const decidedWord = (round: ReviewRound): string => (round.status === 'accepted' ? 'accepted' : round.status === 'rejected' ? 'rejected' : 'reviewed');

/**
 * The item as it is now against the version reviewers last decided (an edit sent it back to
 * review): question, answer and category word by word, and whether the anchors or the trail
 * changed (the trail's own diff is drawn where the trail is). Their verdicts are listed: kept as
 * history, no longer in force.
 */
export function ReviewedChangeView({ item, round }: { item: QaItem; round: ReviewRound }) {
  const was = round.content,
    now = reviewedContent(item);
  const decided = decidedWord(round);
  const who = [
    ...round.reviews.map((r) => `${r.reviewer}: ${r.verdict}`),
    ...(round.adjudication ? [`${round.adjudication.adjudicator} decided: ${round.adjudication.decision}`] : []),
  ];
  const rows: { id: string; label: string; from: string; to: string }[] = [
    { id: 'question', label: 'Question', from: was.question, to: now.question },
    { id: 'answer', label: 'Answer', from: answerLine(was.answer), to: answerLine(now.answer) },
    { id: 'category', label: 'Category', from: categoryLine(was.category), to: categoryLine(now.category) },
  ].filter((r) => r.from !== r.to);
  const anchors = !same(was.anchors, now.anchors) || !same(was.measurement, now.measurement);
  const trail = !same(was.trail, now.trail);
  return (
    <div className="reviewed-change" data-testid="reviewed-change">
      <p>
        <strong>Changed since it was {decided}</strong>
        {who.length ? ` (${who.join(', ')})` : ''}.
        {item.status === 'pending' || item.status === 'adjudicate'
          ? ' Those verdicts no longer count: it needs review again.'
          : ' It has been reviewed again since.'}
      </p>
      {rows.map((r) => (
        <p key={r.id} data-change={r.id}>
          <span className="muted">{r.label}: </span>
          <Words segments={textDiff(r.from, r.to)} />
        </p>
      ))}
      {anchors && (
        <p className="muted" data-change="anchors">
          The anchors (viewpoints, marks, nodes or the measurement) changed.
        </p>
      )}
      {trail && (
        <p className="muted" data-change="trail">
          The trail changed: see its steps below.
        </p>
      )}
      {rows.length === 0 && !anchors && !trail && <p className="muted">The content is back as it was {decided}.</p>}
    </div>
  );
}
