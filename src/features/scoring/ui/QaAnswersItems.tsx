import { useMemo } from 'react';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { fmt, itemNote } from './qaAnswersFormat.ts';
import { openQaItem } from '../state/links.ts';
import { setQaAnswersFilter } from '../state/scoreSession.ts';

const SHOWN = 200;

/** Every item of the selected model: question and replies shown as text, the score and why. */
export function QaAnswersItems() {
  const store = useStudioStore();
  const report = useStudio((s) => s.qaAnswers.report);
  const selected = useStudio((s) => s.qaAnswers.selectedModel);
  const filter = useStudio((s) => s.qaAnswers.filter);
  const model = report?.models.find((m) => m.model === selected) ?? null;
  const rows = useMemo(() => {
    if (!model) return [];
    const t = filter.text.trim().toLowerCase();
    return model.items.filter(
      (r) =>
        (!filter.onlyLost || r.score !== 100) &&
        (!t || r.id.toLowerCase().includes(t) || r.question.toLowerCase().includes(t) || (r.reply ?? '').toLowerCase().includes(t)),
    );
  }, [model, filter]);
  if (!model) return null;
  const setFilter = (patch: Partial<typeof filter>) => setQaAnswersFilter(store, patch);
  return (
    <div className="qa-answer-items">
      <h3>{model.model}: every item</h3>
      <div className="score-controls">
        <div className="row">
          <input
            placeholder="search id, question, reply"
            value={filter.text}
            aria-label="Search QA items"
            onChange={(e) => setFilter({ text: e.target.value })}
          />
          <label>
            <input type="checkbox" checked={filter.onlyLost} onChange={(e) => setFilter({ onlyLost: e.target.checked })} /> only items below 100
          </label>
          <span className="muted">
            {rows.length} item{rows.length === 1 ? '' : 's'}
            {rows.length > SHOWN ? ` (first ${SHOWN} shown)` : ''}
          </span>
        </div>
      </div>
      <table className="table records" data-testid="qa-answers-items">
        <thead>
          <tr>
            <th>Item</th>
            <th>Question</th>
            <th>Truth</th>
            <th>Reply</th>
            <th>Score</th>
            <th>Note</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, SHOWN).map((r) => (
            <tr key={r.id} data-item={r.id}>
              <td data-col="id">
                <button className="link" title="Open the item in the QA view" data-testid="open-qa-item" onClick={() => openQaItem(store, r.id)}>
                  {r.id}
                </button>
              </td>
              <td data-col="question">{r.question}</td>
              <td data-col="truth">{r.truth}</td>
              <td data-col="reply">{r.reply ?? <em className="muted">(no answer)</em>}</td>
              <td data-col="score">{fmt(r.score)}</td>
              <td data-col="note" className="muted">
                {itemNote(r)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {model.unmatched.length > 0 && (
        <p className="warn" data-testid="qa-answers-unmatched">
          Answers to no item (not scored): {model.unmatched.map((u) => `${u.id} (“${u.reply.length > 40 ? `${u.reply.slice(0, 39)}…` : u.reply}”)`).join(', ')}
        </p>
      )}
      {model.duplicates.length > 0 && (
        <p className="warn" data-testid="qa-answers-duplicates">
          Answered more than once (the last answer counts): {model.duplicates.map((d) => `${d.id} ×${d.count}`).join(', ')}
        </p>
      )}
    </div>
  );
}
