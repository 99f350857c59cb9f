import { useEffect, useRef } from 'react';
import { REJECT_REASONS, type QaItem, type RejectReason, type Review } from '../../../core/vqa/item.ts';
import { ANY_SCOPE, isScoped } from '../../../core/vqa/itemFilters.ts';
import { lastRound } from '../../../core/vqa/reopen.ts';
import { openItem, qaItems, showViewpoint } from '../../qa/state/qaItems.ts';
import { itemsFor, REJECT_KEYS, reviewerOf, setScope, startReview } from '../state/qaReview.ts';
import type { Taxonomy } from '../../../core/vqa/taxonomy.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useRunCommand } from '../../../ui/commands.ts';
import { ItemEditor } from '../../qa/ui/ItemEditor.tsx';
import { scopeText } from '../../qa/ui/ItemFilters.tsx';
import { decidedWord, ReviewedChangeView } from './ReviewedChangeView.tsx';
import { TrailDiffView } from './TrailDiffView.tsx';
import { Evidence } from '../../qa/ui/Evidence.tsx';
import { NavigationAnswers } from '../../qa/ui/NavigationAnswers.tsx';
import { isNavigationItem } from '../../../core/vqa/navigationAnswers.ts';
import { setReviewComment } from '../state/qaReview.ts';

export const REASON_TEXT: Record<RejectReason, string> = {
  hallucinated: 'hallucinated / not visible in the scene',
  'wrong-answer': 'wrong answer',
  ambiguous: 'ambiguous',
  trivial: 'trivial',
  'not-in-taxonomy': 'not in the taxonomy',
  implausible: 'physically implausible',
};

/** The answer as a reviewer reads it (user text as text). */
export function AnswerText({ item }: { item: QaItem }) {
  if (isNavigationItem(item)) return <NavigationAnswers item={item} />;
  const a = item.answer;
  if (a.kind === 'mcq')
    return (
      <ol className="mcq" data-testid="review-answer">
        {a.options.map((o) => (
          <li key={o.key} className={o.key === a.correct ? 'correct' : ''}>
            <strong>{o.key}</strong> {o.text}
            {o.key === a.correct ? ' ✓' : ''}
          </li>
        ))}
      </ol>
    );
  if (a.kind === 'yesno')
    return (
      <p data-testid="review-answer">
        Answer: <strong>{a.correct ? 'yes' : 'no'}</strong>
      </p>
    );
  if (a.kind === 'numeric')
    return (
      <p data-testid="review-answer">
        Answer:{' '}
        <strong>
          {a.value} {a.unit}
        </strong>{' '}
        (tolerance {a.tolerance}){item.measurement ? `, measured ${item.measurement.kind} ${item.measurement.value.toFixed(3)} m` : ''}
      </p>
    );
  return <p data-testid="review-answer">Reference: {a.reference}</p>;
}

/**
 * One item at a time, with its scene context: its first viewpoint restored, referenced nodes and
 * marks highlighted in 3D. A accept · E edit then accept · R reject, then the reason key · / comment
 * · . , move; on an item whose reviews disagree A and R decide it. The decision keys sit right
 * under the question and answer, so they are on screen at 1400×900 however long the trail is.
 */
export function ReviewPanel() {
  const store = useStudioStore();
  const runCommand = useRunCommand();
  const item = useStudio(openItem);
  const qa = useStudio((s) => s.qa);
  const reviewer = useStudio(reviewerOf);
  const scene = useStudio((s) => s.document.project?.scenes.find((x) => x.id === item?.sceneId));
  const taxonomy = useStudio((s) => s.document.project?.qa.taxonomy);
  const commentRequest = useStudio((s) => s.ephemeral.commentRequest);
  const comment = useRef<HTMLTextAreaElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (commentRequest) comment.current?.focus();
  }, [commentRequest]);
  // After R the reasons are brought into view and the first is focused (Enter picks it; the reason keys work as before).
  useEffect(() => {
    if (!qa.rejecting) return;
    const first = panel.current?.querySelector<HTMLElement>('[data-testid=reject-reasons] button');
    first?.scrollIntoView({ block: 'nearest' });
    first?.focus({ preventScroll: true });
  }, [qa.rejecting, item?.id]);
  // E puts the cursor in the question; leaving the editor (Esc, or accepting) gives the keys back to the queue.
  const wasEditing = useRef(false);
  useEffect(() => {
    if (qa.editingForReview) panel.current?.querySelector<HTMLElement>('[data-testid=item-question]')?.focus();
    else if (wasEditing.current) focusQueue(qa.itemId);
    wasEditing.current = qa.editingForReview;
  }, [qa.editingForReview, qa.itemId]);
  if (!item) return <ReviewEmpty />;
  if (qa.editingForReview) {
    return (
      <div className="review editing" data-testid="review-panel" data-item={item.id} ref={panel}>
        <div className="review-actions">
          <button className="small" data-testid="accept-edits" onClick={() => runCommand('qa.acceptEdits')}>
            Accept with edits <kbd>Ctrl+Enter</kbd>
          </button>
          <button className="small secondary" onClick={() => runCommand('qa.cancel')}>
            Back <kbd>Esc</kbd>
          </button>
        </div>
        <ItemEditor />
      </div>
    );
  }
  const names = new Map(scene?.graph.nodes.map((n) => [n.id, n.name || n.id]));
  const mine = item.reviews.find((r) => r.reviewer === reviewer);
  const cap = categoryText(item, taxonomy);
  const awaiting = item.status === 'adjudicate';
  const round = lastRound(item);
  return (
    <div className="review" data-testid="review-panel" data-item={item.id} ref={panel}>
      <div className="muted">
        {item.id} · {item.sceneId} · {item.source}
        {item.generated?.generator ? ` · ${item.generated.generator}` : ''} · <strong data-testid="item-status">{item.status}</strong>
        {item.requiredReviews > 1 ? ` · ${item.reviews.length}/${item.requiredReviews} reviews` : ''}
      </div>
      <p className="review-question" data-testid="review-question">
        {item.question}
      </p>
      {!round && item.generated && item.generated.question !== item.question && (
        <p className="muted">
          Generated as: <del>{item.generated.question}</del>
        </p>
      )}
      <AnswerText item={item} />
      <p className="muted">
        Category: {cap || <span className="bad">none</span>}
        {item.anchors.agent ? ` · agent ${item.anchors.agent}` : ''}
      </p>
      {round && <ReviewedChangeView item={item} round={round} />}
      {!reviewer && <p className="bad">Enter your name as reviewer above: every verdict is recorded with it.</p>}
      {qa.rejecting ? (
        <div className="review-actions reasons" data-testid="reject-reasons">
          <span>{awaiting ? 'Decide to reject: why?' : 'Why?'} </span>
          {REJECT_REASONS.map((r) => (
            <button key={r} className="small danger" data-reason={r} onClick={() => runCommand(`qa.reject.${r}`)}>
              {REASON_TEXT[r]} <kbd>{REJECT_KEYS[r]}</kbd>
            </button>
          ))}
          <button className="small secondary" onClick={() => runCommand('qa.cancel')}>
            Cancel <kbd>Esc</kbd>
          </button>
        </div>
      ) : awaiting ? (
        <Adjudicate item={item} />
      ) : (
        <div className="review-actions" data-testid="review-actions">
          <button className="small" data-testid="review-accept" onClick={() => runCommand('qa.accept')}>
            Accept <kbd>A</kbd>
          </button>
          <button className="small" data-testid="review-edit" onClick={() => runCommand('qa.edit')}>
            Edit, then accept <kbd>E</kbd>
          </button>
          <button className="small danger" data-testid="review-reject" onClick={() => runCommand('qa.reject')}>
            Reject <kbd>R</kbd>
          </button>
          <span className="muted">{mine ? `Your verdict: ${mine.verdict}. A new one replaces it.` : ', and . move through the queue'}</span>
        </div>
      )}
      <label className="comment">
        Comment{' '}
        <textarea
          id="qa-comment"
          ref={comment}
          rows={2}
          data-testid="qa-comment"
          placeholder="optional; / to write, Esc leaves the field"
          value={qa.comment}
          onChange={(e) => {
            const comment = e.target.value;
            setReviewComment(store, comment);
          }}
          onKeyDown={(e) => {
            // Esc leaves the field only: a pending reject (its reasons shown) stays pending.
            if (e.key === 'Escape') {
              e.stopPropagation();
              e.currentTarget.blur();
            }
          }}
        />
      </label>
      <Evidence item={item} />
      <div className="refs">
        {item.anchors.viewpoints.map((v) =>
          v.thumbnail ? (
            <img
              key={v.id}
              className="thumb"
              src={v.thumbnail}
              alt={`Viewpoint ${v.name}`}
              title="Show this view"
              onClick={() => showViewpoint(store, v.camera)}
            />
          ) : (
            <button key={v.id} className="small secondary" onClick={() => showViewpoint(store, v.camera)}>
              view {v.name}
            </button>
          ),
        )}
        {item.anchors.nodes.map((id) => (
          <span key={id} className="chip" data-node-ref={id}>
            {names.get(id) ?? `${id} (missing)`}
          </span>
        ))}
        {item.anchors.marks.map((m) => (
          <span key={m.id} className="chip">
            mark {m.number}
            {m.label ? ` ${m.label}` : ''}
          </span>
        ))}
      </div>
      {round ? (
        <TrailDiffView generated={round.content.trail} current={item.trail} since={`as ${decidedWord(round)}`} />
      ) : item.generated ? (
        <TrailDiffView generated={item.generated.trail} current={item.trail} />
      ) : (
        <ol className="trail-read">
          {item.trail.map((s) => (
            <li key={s.id}>
              <strong>{s.title}</strong> <span className="badge">{s.kind}</span> {s.text}
            </li>
          ))}
        </ol>
      )}
      {item.reviews.length > 0 && !awaiting && <Reviews reviews={item.reviews} />}
    </div>
  );
}

/** Give the keys back to the queue: the open item's row in the list (or the list itself). */
function focusQueue(itemId: string | null): void {
  const row = itemId ? document.querySelector<HTMLElement>(`[data-item-row="${CSS.escape(itemId)}"]`) : null;
  (row ?? document.querySelector<HTMLElement>('[data-testid=qa-list]'))?.focus({ preventScroll: !row });
}

const Reviews = ({ reviews }: { reviews: Review[] }) => (
  <ul className="reviews" data-testid="reviews">
    {reviews.map((r) => (
      <li key={r.reviewer}>
        {r.reviewer}: {r.verdict}
        {r.reason ? ` (${REASON_TEXT[r.reason]})` : ''}
        {r.comment ? ` — ${r.comment}` : ''} · {(r.timeMs / 1000).toFixed(0)} s
      </li>
    ))}
  </ul>
);

/** No item open: the queue is empty, or the filters leave out what waits. */
function ReviewEmpty() {
  const store = useStudioStore();
  const scope = useStudio((s) => s.qa.scope);
  const all = useStudio(qaItems);
  const reviewer = useStudio(reviewerOf);
  const waiting = itemsFor(all, 'to-review', reviewer, scope).length;
  const elsewhere = isScoped(scope) ? itemsFor(all, 'to-review', reviewer).length : 0;
  if (waiting > 0) {
    // Items wait (the reviewer's name changed, or items arrived) but none is open: say so, never "nothing".
    return (
      <div className="hint" data-testid="review-empty">
        <p>
          {waiting} item{waiting === 1 ? '' : 's'} wait{waiting === 1 ? 's' : ''} for your review{reviewer ? ` as ${reviewer}` : ''}.
        </p>
        <button className="small" data-testid="review-start" onClick={() => startReview(store)}>
          Review them
        </button>
      </div>
    );
  }
  if (elsewhere > 0) {
    return (
      <div className="hint" data-testid="review-empty">
        <p>
          Nothing in your review queue matches the filters ({scopeText(scope)}); {elsewhere} item{elsewhere === 1 ? '' : 's'} wait{elsewhere === 1 ? 's' : ''}{' '}
          for you outside them.
        </p>
        <button
          className="small"
          data-testid="review-clear-filters"
          onClick={() => {
            setScope(store, ANY_SCOPE);
            startReview(store);
          }}
        >
          Clear the filters and review them
        </button>
      </div>
    );
  }
  return (
    <p className="hint" data-testid="review-empty">
      Nothing waits for your review. Items you wrote, and items you already reviewed, are not in your queue.
    </p>
  );
}

function categoryText(item: QaItem, taxonomy: Taxonomy | undefined): string {
  const cap = taxonomy?.capabilities.find((c) => c.id === item.category.capability);
  const sub = cap?.subcategories.find((x) => x.id === item.category.subcategory);
  const task = taxonomy?.taskTypes.find((t) => t.id === item.category.taskType);
  return [cap?.name ?? item.category.capability, sub && `${sub.id} ${sub.name}`, task?.name].filter(Boolean).join(' · ');
}

/** The reviews disagree: someone who neither wrote nor reviewed the item decides it, with A or R and a reason. */
function Adjudicate({ item }: { item: QaItem }) {
  const runCommand = useRunCommand();
  return (
    <div className="adjudicate" data-testid="adjudicate">
      <p>
        <strong>The reviews disagree</strong>: decide the item (a third review would not).
      </p>
      <Reviews reviews={item.reviews} />
      <div className="review-actions">
        <button className="small" data-testid="adjudicate-accept" onClick={() => runCommand('qa.adjudicate.accept')}>
          Decide: accept <kbd>A</kbd>
        </button>
        <button className="small danger" data-testid="adjudicate-reject" onClick={() => runCommand('qa.adjudicate.reject')}>
          Decide: reject <kbd>R</kbd>
        </button>
        <span className="muted">then the reason key</span>
      </div>
    </div>
  );
}
