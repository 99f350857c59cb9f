import { useRef, useState } from 'react';
import { STEP_KINDS, type QaItem, type TrailStep } from '../../../core/vqa/item.ts';
import type { LinkKind } from '../../../core/vqa/trail.ts';
import { applyEdit, type Edit } from '../../../state/edits.ts';
import { ITEM_EDITS } from '../state/qaItemEdits.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { Field } from './Field.tsx';
import { TrailDiffView } from '../../review/ui/TrailDiffView.tsx';

/** The reasoning trail: ordered steps, each linked to viewpoints, nodes and marks; every edit is one undo step. */
export function TrailEditor({ item }: { item: QaItem }) {
  const store = useStudioStore();
  const scene = useStudio((s) => s.document.project?.scenes.find((x) => x.id === item.sceneId));
  const [showDiff, setShowDiff] = useState(false);
  const cursor = useRef<Record<string, number>>({});
  const edit = <A,>(e: Edit<A & { itemId: string }>, args: A) => applyEdit(store, e, { ...args, itemId: item.id });
  const names = new Map(scene?.graph.nodes.map((n) => [n.id, n.name || n.id]));
  const linkNames: Record<LinkKind, (id: string) => string> = {
    nodes: (id) => names.get(id) ?? `${id} (missing)`,
    viewpoints: (id) => item.anchors.viewpoints.find((v) => v.id === id)?.name ?? `${id} (missing)`,
    marks: (id) => {
      const m = item.anchors.marks.find((x) => x.id === id);
      return m ? `mark ${m.number}` : `${id} (missing)`;
    },
    edges: (id) => id,
  };
  const options: Record<Exclude<LinkKind, 'edges'>, { id: string; name: string }[]> = {
    nodes: scene?.graph.nodes.map((n) => ({ id: n.id, name: n.name || n.id })) ?? [],
    viewpoints: item.anchors.viewpoints.map((v) => ({ id: v.id, name: v.name })),
    marks: item.anchors.marks.map((m) => ({ id: m.id, name: `mark ${m.number}` })),
  };

  return (
    <div className="trail" data-testid="trail">
      <h4>
        Reasoning trail ({item.trail.length} step{item.trail.length === 1 ? '' : 's'})
        {item.generated && (
          <button className="small secondary" onClick={() => setShowDiff((d) => !d)}>
            {showDiff ? 'Edit' : 'What changed from the generated trail'}
          </button>
        )}
      </h4>
      {showDiff && item.generated ? (
        <TrailDiffView generated={item.generated.trail} current={item.trail} />
      ) : (
        <ol className="steps">
          {item.trail.map((step, k) => (
            <li key={step.id} className={`step ${step.origin}`} data-step={k}>
              <div className="step-head">
                <Field
                  label={`Step ${k + 1} title`}
                  testId={`step-title-${k}`}
                  value={step.title}
                  placeholder="title"
                  onCommit={(v) => edit(ITEM_EDITS.editStep, { k, patch: { title: v } })}
                />
                <select
                  aria-label={`Step ${k + 1} kind`}
                  value={step.kind}
                  onChange={(e) => edit(ITEM_EDITS.editStep, { k, patch: { kind: e.target.value as TrailStep['kind'] } })}
                >
                  {STEP_KINDS.map((x) => (
                    <option key={x}>{x}</option>
                  ))}
                </select>
                <span className={`badge origin-${step.origin}`} title="generated, written by a person, or a generated step a person edited">
                  {step.origin}
                </span>
              </div>
              <textarea
                aria-label={`Step ${k + 1} text`}
                data-testid={`step-text-${k}`}
                defaultValue={step.text}
                key={`${step.id}:${step.text}`}
                rows={2}
                onSelect={(e) => {
                  cursor.current[step.id] = e.currentTarget.selectionStart;
                }}
                onBlur={(e) => {
                  if (e.target.value !== step.text) {
                    const v = e.target.value;
                    edit(ITEM_EDITS.editStep, { k, patch: { text: v } });
                  }
                }}
              />
              <div className="links">
                {(['nodes', 'viewpoints', 'marks', 'edges'] as LinkKind[]).flatMap((kind) =>
                  step.links[kind].map((id) => (
                    <span key={`${kind}:${id}`} className="chip" data-link={`${kind}:${id}`}>
                      {linkNames[kind](id)}
                      <button className="small secondary" aria-label={`Unlink ${id}`} onClick={() => edit(ITEM_EDITS.unlink, { k, kind, id })}>
                        ×
                      </button>
                    </span>
                  )),
                )}
                {(Object.keys(options) as (keyof typeof options)[]).map(
                  (kind) =>
                    options[kind].length > 0 && (
                      <select
                        key={kind}
                        aria-label={`Step ${k + 1}: link a ${kind.slice(0, -1)}`}
                        value=""
                        onChange={(e) => {
                          const id = e.target.value;
                          if (id) edit(ITEM_EDITS.link, { k, kind, id });
                        }}
                      >
                        <option value="">+ {kind.slice(0, -1)}…</option>
                        {options[kind].map((o) => (
                          <option key={o.id} value={o.id}>
                            {o.name}
                          </option>
                        ))}
                      </select>
                    ),
                )}
              </div>
              <div className="step-actions">
                <button className="small secondary" onClick={() => edit(ITEM_EDITS.addStep, { after: k })}>
                  + after
                </button>
                <button className="small secondary" disabled={k === 0} onClick={() => edit(ITEM_EDITS.moveStep, { from: k, to: k - 1 })} aria-label="Move up">
                  ↑
                </button>
                <button
                  className="small secondary"
                  disabled={k === item.trail.length - 1}
                  onClick={() => edit(ITEM_EDITS.moveStep, { from: k, to: k + 1 })}
                  aria-label="Move down"
                >
                  ↓
                </button>
                <button
                  className="small secondary"
                  onClick={() => edit(ITEM_EDITS.splitStep, { k, at: cursor.current[step.id] ?? Math.floor(step.text.length / 2) })}
                  title="Split at the cursor"
                >
                  split
                </button>
                <button className="small secondary" disabled={k === item.trail.length - 1} onClick={() => edit(ITEM_EDITS.mergeSteps, { k })}>
                  merge with next
                </button>
                <button className="small secondary" onClick={() => edit(ITEM_EDITS.removeStep, { k })} aria-label={`Remove step ${k + 1}`}>
                  remove
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
      {!showDiff && (
        <button className="small" data-testid="add-step" onClick={() => edit(ITEM_EDITS.addStep, { after: item.trail.length - 1 })}>
          + Step
        </button>
      )}
    </div>
  );
}
