import type { Answer } from '../../../core/vqa/item.ts';
import type { AnswerMeasurement } from '../../../core/vqa/items.ts';
import { hasVerdicts } from '../../../core/vqa/reopen.ts';
import { applyEdit, type Edit } from '../../../state/edits.ts';
import { ITEM_EDITS } from '../state/qaItemEdits.ts';
import { deleteItem, openItem } from '../state/qaItems.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { AnchorsEditor } from './AnchorsEditor.tsx';
import { Field } from './Field.tsx';
import { TrailEditor } from './TrailEditor.tsx';
import { NavigationAnswers } from './NavigationAnswers.tsx';
import { isNavigationItem } from '../../../core/vqa/navigationAnswers.ts';

const KIND_LABEL: Record<Answer['kind'], string> = { mcq: 'Multiple choice', yesno: 'Yes / no', numeric: 'Numeric', freetext: 'Free text' };

/** The open item: question, answer by kind, category, anchors in the scene, and the reasoning trail. */
export function ItemEditor() {
  const store = useStudioStore();
  const item = useStudio(openItem);
  const taxonomy = useStudio((s) => s.document.project?.qa.taxonomy);
  const measure = useStudio((s) => s.ephemeral.measure);
  if (!item || !taxonomy) return <p className="hint">Choose an item, or “+ New item” to write one for the selected scene.</p>;
  const edit = <A,>(e: Edit<A & { itemId: string }>, args: A) => applyEdit(store, e, { ...args, itemId: item.id });
  const a = item.answer;
  const cap = taxonomy.capabilities.find((c) => c.id === item.category.capability);
  const fromMeasure: (AnswerMeasurement & { label: string })[] = [];
  const points = measure?.points ?? [];
  if (measure?.distance)
    fromMeasure.push(
      { label: 'distance', value: measure.distance.total, kind: 'distance', points },
      { label: 'height', value: measure.distance.vertical, kind: 'height', points },
      { label: 'horizontal', value: measure.distance.horizontal, kind: 'horizontal', points },
    );
  if (measure?.width) fromMeasure.push({ label: 'clear width', value: measure.width.width, kind: 'width', points: [measure.width.a, measure.width.b] });

  return (
    <div className="item-editor" data-testid="item-editor" data-item={item.id}>
      <div className="item-head">
        <span className="muted">
          {item.id} · {item.sceneId} · {item.source}
          {item.author ? ` · by ${item.author}` : ''} ·{' '}
        </span>
        <strong data-testid="item-status">{item.status}</strong>
        {hasVerdicts(item) && (
          <span className="muted" data-testid="edit-reopens" title="Reviewers judged this text: changing it sets their verdicts aside (kept as history)">
            · an edit sends it back to review
          </span>
        )}
        <label className="inline" title="Independent reviews the item needs before it is decided">
          reviews needed
          <input
            type="number"
            min={1}
            max={5}
            className="weight"
            data-testid="required-reviews"
            value={item.requiredReviews}
            onChange={(e) => {
              const n = e.target.valueAsNumber;
              edit(ITEM_EDITS.requiredReviews, { n });
            }}
          />
        </label>
        {item.status === 'draft' && (
          <button className="small" data-testid="submit-item" title="Put the item in the review queue" onClick={() => edit(ITEM_EDITS.submit, {})}>
            Submit for review
          </button>
        )}
        <button className="small secondary" aria-label={`Delete ${item.id}`} onClick={() => deleteItem(store, item.id)}>
          Delete
        </button>
      </div>
      <label>
        Question <Field multiline label="Question" testId="item-question" value={item.question} onCommit={(v) => edit(ITEM_EDITS.question, { text: v })} />
      </label>
      {isNavigationItem(item) ? (
        <NavigationAnswers item={item} />
      ) : (
        <>
          <label>
            Kind{' '}
            <select
              aria-label="Answer kind"
              data-testid="item-kind"
              value={a.kind}
              onChange={(e) => edit(ITEM_EDITS.answerKind, { kind: e.target.value as Answer['kind'] })}
            >
              {(Object.keys(KIND_LABEL) as Answer['kind'][]).map((k) => (
                <option key={k} value={k}>
                  {KIND_LABEL[k]}
                </option>
              ))}
            </select>
          </label>
          {a.kind === 'mcq' && (
            <div className="options" data-testid="mcq-options">
              {a.options.map((o, k) => (
                <div key={k} className="option">
                  <input
                    type="radio"
                    name={`correct-${item.id}`}
                    checked={a.correct === o.key}
                    aria-label={`Correct: ${o.key}`}
                    onChange={() => edit(ITEM_EDITS.correctOption, { key: o.key })}
                  />
                  <strong>{o.key}</strong>
                  <Field
                    label={`Option ${o.key}`}
                    testId={`option-${o.key}`}
                    value={o.text}
                    onCommit={(v) => edit(ITEM_EDITS.optionText, { key: o.key, text: v })}
                  />
                  <button className="small secondary" aria-label={`Remove option ${o.key}`} onClick={() => edit(ITEM_EDITS.removeOption, { key: o.key })}>
                    ×
                  </button>
                </div>
              ))}
              <button className="small secondary" data-testid="add-option" onClick={() => edit(ITEM_EDITS.addOption, {})}>
                + Option
              </button>
            </div>
          )}
          {a.kind === 'yesno' && (
            <label>
              Answer{' '}
              <select aria-label="Yes or no" value={a.correct ? 'yes' : 'no'} onChange={(e) => edit(ITEM_EDITS.yesNo, { yes: e.target.value === 'yes' })}>
                <option value="yes">yes</option>
                <option value="no">no</option>
              </select>
            </label>
          )}
          {a.kind === 'numeric' && (
            <div className="numeric">
              <label>
                Value{' '}
                <input
                  type="number"
                  step="0.001"
                  aria-label="Numeric answer"
                  data-testid="numeric-value"
                  value={a.value}
                  onChange={(e) => edit(ITEM_EDITS.numeric, { patch: { value: e.target.valueAsNumber } })}
                />
              </label>
              <label>
                Unit <Field label="Unit" value={a.unit} onCommit={(v) => edit(ITEM_EDITS.numeric, { patch: { unit: v } })} />
              </label>
              <label>
                Tolerance τ{' '}
                <input
                  type="number"
                  step="0.01"
                  min={0}
                  aria-label="Tolerance"
                  value={a.tolerance}
                  onChange={(e) => edit(ITEM_EDITS.numeric, { patch: { tolerance: e.target.valueAsNumber } })}
                />
              </label>
              {fromMeasure.map((m) => (
                <button key={m.kind} className="small" data-testid={`fill-${m.kind}`} onClick={() => edit(ITEM_EDITS.fromMeasurement, { measurement: m })}>
                  Use {m.label} {m.value.toFixed(2)} m
                </button>
              ))}
              {fromMeasure.length === 0 && <span className="muted">Measure in the scene (M) to fill the answer from it.</span>}
              {item.measurement && (
                <span className="muted" data-testid="measurement-evidence">
                  from a measured {item.measurement.kind} of {item.measurement.value.toFixed(3)} m (kept as evidence)
                </span>
              )}
            </div>
          )}
          {a.kind === 'freetext' && (
            <label>
              Reference answer <Field multiline label="Reference answer" value={a.reference} onCommit={(v) => edit(ITEM_EDITS.reference, { text: v })} />
            </label>
          )}
        </>
      )}
      <div className="category">
        <label>
          Capability{' '}
          <select
            aria-label="Capability"
            data-testid="item-capability"
            value={item.category.capability}
            onChange={(e) => edit(ITEM_EDITS.category, { category: { ...item.category, capability: e.target.value } })}
          >
            <option value="">— required —</option>
            {taxonomy.capabilities.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        {cap && cap.subcategories.length > 0 && (
          <label>
            Subcategory{' '}
            <select
              aria-label="Subcategory"
              value={item.category.subcategory ?? ''}
              onChange={(e) => edit(ITEM_EDITS.category, { category: { ...item.category, subcategory: e.target.value || undefined } })}
            >
              <option value="">—</option>
              {cap.subcategories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.id} {c.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Task type{' '}
          <select
            aria-label="Task type"
            value={item.category.taskType ?? ''}
            onChange={(e) => edit(ITEM_EDITS.category, { category: { ...item.category, taskType: e.target.value || undefined } })}
          >
            <option value="">—</option>
            {taxonomy.taskTypes.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <AnchorsEditor item={item} />
      <TrailEditor item={item} />
    </div>
  );
}
