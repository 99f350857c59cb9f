import { useEffect, useRef } from 'react';
import { REJECT_REASONS, type QaItem, type RejectReason } from '../../core/vqa/item.ts';
import { openItem, showViewpoint } from '../../state/qaItems.ts';
import { recordAdjudication, REJECT_KEYS, reviewerOf } from '../../state/qaReview.ts';
import type { Taxonomy } from '../../core/vqa/taxonomy.ts';
import { useStudio, useStudioStore } from '../../state/useStudio.ts';
import { useActions } from '../actions.ts';
import { ItemEditor } from './ItemEditor.tsx';
import { TrailDiffView } from './TrailDiffView.tsx';

export const REASON_TEXT: Record<RejectReason, string> = {
  hallucinated: 'hallucinated / not visible in the scene', 'wrong-answer': 'wrong answer', ambiguous: 'ambiguous', trivial: 'trivial',
  'not-in-taxonomy': 'not in the taxonomy', implausible: 'physically implausible',
};

/** The answer as a reviewer reads it (user text as text). */
export function AnswerText({ item }: { item: QaItem }) {
  const a = item.answer;
  if (a.kind === 'mcq') return <ol className="mcq" data-testid="review-answer">{a.options.map((o) => <li key={o.key} className={o.key === a.correct ? 'correct' : ''}><strong>{o.key}</strong> {o.text}{o.key === a.correct ? ' ✓' : ''}</li>)}</ol>;
  if (a.kind === 'yesno') return <p data-testid="review-answer">Answer: <strong>{a.correct ? 'yes' : 'no'}</strong></p>;
  if (a.kind === 'numeric') return <p data-testid="review-answer">Answer: <strong>{a.value} {a.unit}</strong> (tolerance {a.tolerance}){item.measurement ? `, measured ${item.measurement.kind} ${item.measurement.value.toFixed(3)} m` : ''}</p>;
  return <p data-testid="review-answer">Reference: {a.reference}</p>;
}

/**
 * One item at a time, with its scene context: its first viewpoint restored, referenced nodes and
 * marks highlighted in 3D. A accept · E edit then accept · R reject, then the reason key · / comment · . , move.
 */
export function ReviewPanel() {
  const store = useStudioStore();
  const { runCommand } = useActions();
  const item = useStudio(openItem);
  const qa = useStudio((s) => s.qa);
  const reviewer = useStudio(reviewerOf);
  const scene = useStudio((s) => s.document.project?.scenes.find((x) => x.id === item?.sceneId));
  const taxonomy = useStudio((s) => s.document.project?.qa.taxonomy);
  const commentRequest = useStudio((s) => s.ephemeral.commentRequest);
  const comment = useRef<HTMLTextAreaElement>(null);
  useEffect(() => { if (commentRequest) comment.current?.focus(); }, [commentRequest]);
  if (!item) return <p className="hint" data-testid="review-empty">Nothing waits for your review. Items you wrote, and items you already reviewed, are not in your queue.</p>;
  if (qa.editingForReview) {
    return (
      <div className="review editing" data-testid="review-panel" data-item={item.id}>
        <div className="review-actions">
          <button className="small" data-testid="accept-edits" onClick={() => runCommand('qa.acceptEdits')}>Accept with edits <kbd>Ctrl+Enter</kbd></button>
          <button className="small secondary" onClick={() => runCommand('qa.cancel')}>Back <kbd>Esc</kbd></button>
        </div>
        <ItemEditor />
      </div>
    );
  }
  const names = new Map(scene?.graph.nodes.map((n) => [n.id, n.name || n.id]));
  const mine = item.reviews.find((r) => r.reviewer === reviewer);
  const cap = categoryText(item, taxonomy);
  return (
    <div className="review" data-testid="review-panel" data-item={item.id}>
      <div className="muted">{item.id} · {item.sceneId} · {item.source}{item.generated?.generator ? ` · ${item.generated.generator}` : ''} · <strong data-testid="item-status">{item.status}</strong>
        {item.requiredReviews > 1 ? ` · ${item.reviews.length}/${item.requiredReviews} reviews` : ''}</div>
      <p className="review-question" data-testid="review-question">{item.question}</p>
      {item.generated && item.generated.question !== item.question && <p className="muted">Generated as: <del>{item.generated.question}</del></p>}
      <AnswerText item={item} />
      <p className="muted">Category: {cap || <span className="bad">none</span>}{item.anchors.agent ? ` · agent ${item.anchors.agent}` : ''}</p>
      <div className="refs">
        {item.anchors.viewpoints.map((v) => v.thumbnail
          ? <img key={v.id} className="thumb" src={v.thumbnail} alt={`Viewpoint ${v.name}`} title="Show this view" onClick={() => showViewpoint(store, v.camera)} />
          : <button key={v.id} className="small secondary" onClick={() => showViewpoint(store, v.camera)}>view {v.name}</button>)}
        {item.anchors.nodes.map((id) => <span key={id} className="chip" data-node-ref={id}>{names.get(id) ?? `${id} (missing)`}</span>)}
        {item.anchors.marks.map((m) => <span key={m.id} className="chip">mark {m.number}{m.label ? ` ${m.label}` : ''}</span>)}
      </div>
      {item.generated ? <TrailDiffView generated={item.generated.trail} current={item.trail} /> : (
        <ol className="trail-read">{item.trail.map((s) => <li key={s.id}><strong>{s.title}</strong> <span className="badge">{s.kind}</span> {s.text}</li>)}</ol>
      )}
      {item.reviews.length > 0 && (
        <ul className="reviews" data-testid="reviews">
          {item.reviews.map((r) => <li key={r.reviewer}>{r.reviewer}: {r.verdict}{r.reason ? ` (${REASON_TEXT[r.reason]})` : ''}{r.comment ? ` — ${r.comment}` : ''} · {(r.timeMs / 1000).toFixed(0)} s</li>)}
        </ul>
      )}
      <label className="comment">Comment <textarea id="qa-comment" ref={comment} rows={2} data-testid="qa-comment" placeholder="optional; / to write, Esc leaves the field" value={qa.comment}
        onChange={(e) => { const comment = e.target.value; store.setState((s) => ({ qa: { ...s.qa, comment } })); }}
        onKeyDown={(e) => { if (e.key === 'Escape') e.currentTarget.blur(); }} /></label>
      {!reviewer && <p className="bad">Enter your name as reviewer above: every verdict is recorded with it.</p>}
      {item.status === 'adjudicate' ? <Adjudicate /> : qa.rejecting ? (
        <div className="review-actions reasons" data-testid="reject-reasons">
          <span>Why? </span>
          {REJECT_REASONS.map((r) => <button key={r} className="small danger" data-reason={r} onClick={() => runCommand(`qa.reject.${r}`)}>{REASON_TEXT[r]} <kbd>{REJECT_KEYS[r]}</kbd></button>)}
          <button className="small secondary" onClick={() => runCommand('qa.cancel')}>Cancel <kbd>Esc</kbd></button>
        </div>
      ) : (
        <div className="review-actions">
          <button className="small" data-testid="review-accept" onClick={() => runCommand('qa.accept')}>Accept <kbd>A</kbd></button>
          <button className="small" onClick={() => runCommand('qa.edit')}>Edit, then accept <kbd>E</kbd></button>
          <button className="small danger" onClick={() => runCommand('qa.reject')}>Reject <kbd>R</kbd></button>
          <span className="muted">{mine ? `Your verdict: ${mine.verdict}. A new one replaces it.` : ', and . move through the queue'}</span>
        </div>
      )}
    </div>
  );
}

function categoryText(item: QaItem, taxonomy: Taxonomy | undefined): string {
  const cap = taxonomy?.capabilities.find((c) => c.id === item.category.capability);
  const sub = cap?.subcategories.find((x) => x.id === item.category.subcategory);
  const task = taxonomy?.taskTypes.find((t) => t.id === item.category.taskType);
  return [cap?.name ?? item.category.capability, sub && `${sub.id} ${sub.name}`, task?.name].filter(Boolean).join(' · ');
}

/** The reviews disagreed: someone who did not review the item decides it. */
function Adjudicate() {
  const store = useStudioStore();
  const decide = (d: 'accept' | 'reject', reason?: RejectReason) => {
    const refused = recordAdjudication(store, d, reason);
    store.setState((s) => ({ ephemeral: { ...s.ephemeral, notice: refused ?? `Adjudicated: ${d}.` } }));
  };
  return (
    <div className="review-actions" data-testid="adjudicate">
      <strong>The reviews disagree.</strong>
      <button className="small" onClick={() => decide('accept')}>Accept</button>
      {REJECT_REASONS.map((r) => <button key={r} className="small danger" onClick={() => decide('reject', r)}>Reject: {REASON_TEXT[r]}</button>)}
    </div>
  );
}
