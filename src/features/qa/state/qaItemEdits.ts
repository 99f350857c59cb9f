import type { Project } from '../../../core/project.ts';
import type { Answer, QaItem, TrailStep, Viewpoint } from '../../../core/vqa/item.ts';
import {
  addOption,
  removeAnchor,
  removeOption,
  setAnswerFromMeasurement,
  setAnswerKind,
  setCategory,
  setCorrectOption,
  setMarkLabel,
  setNumeric,
  setOptionText,
  setQuestion,
  setReference,
  setRequiredReviews,
  setYesNo,
  submitForReview,
  type AnswerMeasurement,
} from '../../../core/vqa/items.ts';
import { syncHallucination } from '../../../core/vqa/hallucination.ts';
import { reopenAfterEdit } from '../../../core/vqa/reopen.ts';
import { refreshStatus } from '../../../core/vqa/review.ts';
import { DEFAULT_TAXONOMY, type Taxonomy } from '../../../core/vqa/taxonomy.ts';
import { addStep, editStep, linkStep, mergeSteps, moveStep, removeStep, splitStep, unlinkStep, type LinkKind } from '../../../core/vqa/trail.ts';
import { applyCapnavQaImport, type CapnavItemsRead } from '../../../core/vqa/capnav.ts';
import { defineEdit, itemEdit, withItems, type Edit } from '../../../state/edits.ts';

/**
 * The question-answer items' edits, one per gesture of the item, trail and anchor editors (each
 * one undo step), and the edits of the item list and the taxonomy.
 */

const trail = <A>(id: string, label: string, fn: (t: TrailStep[], a: A) => TrailStep[]) =>
  itemEdit(id, label, (i, a: A) => {
    const t = fn(i.trail, a);
    return t === i.trail ? i : { ...i, trail: t };
  });
const anchors = <A>(id: string, label: string, fn: (x: QaItem['anchors'], a: A) => QaItem['anchors']) =>
  itemEdit(id, label, (i, a: A) => ({ ...i, anchors: fn(i.anchors, a) }));

/**
 * An edit of what reviewers judge: an item with verdicts in force goes back to review in the same
 * step, its verdicts kept as history (core/vqa/reopen.ts), so one undo restores text and status.
 * A CapNav item that was rejected as hallucinated has its question unlisted again meanwhile.
 */
function reviewed<A>(edit: Edit<A>): Edit<A> {
  return defineEdit(edit.id, edit.label, (p, a) => {
    const next = edit.apply(p, a);
    if (next === p) return p;
    const before = new Map(p.qa.items.map((i) => [i.id, i]));
    let out = next;
    for (const item of next.qa.items) {
      const was = before.get(item.id);
      if (!was || was === item) continue;
      const reopened = reopenAfterEdit(was, item);
      if (reopened === item) continue;
      out = syncHallucination(
        withItems(out, (items) => items.map((i) => (i.id === item.id ? was : i))),
        reopened,
      );
    }
    return out;
  });
}

function reopening<T extends Record<string, Edit<never>>>(edits: T): T {
  return Object.fromEntries(Object.entries(edits).map(([k, e]) => [k, reviewed(e)])) as T;
}

/** The edits of what reviewers judge (each wrapped by `reviewed` below). */
const CONTENT_EDITS = {
  question: itemEdit('qa.item.question', 'Edit question', (i, a: { text: string }) => setQuestion(i, a.text)),
  answerKind: itemEdit('qa.item.answerKind', 'Change answer kind', (i, a: { kind: Answer['kind'] }) => setAnswerKind(i, a.kind)),
  correctOption: itemEdit('qa.item.correctOption', 'Set correct option', (i, a: { key: string }) => setCorrectOption(i, a.key)),
  optionText: itemEdit('qa.item.optionText', 'Edit option', (i, a: { key: string; text: string }) => setOptionText(i, a.key, a.text)),
  addOption: itemEdit('qa.item.addOption', 'Add option', (i) => addOption(i)),
  removeOption: itemEdit('qa.item.removeOption', 'Remove option', (i, a: { key: string }) => removeOption(i, a.key)),
  yesNo: itemEdit('qa.item.yesNo', 'Set answer', (i, a: { yes: boolean }) => setYesNo(i, a.yes)),
  numeric: itemEdit('qa.item.numeric', 'Edit numeric answer', (i, a: { patch: { value?: number; unit?: string; tolerance?: number } }) =>
    setNumeric(i, a.patch),
  ),
  fromMeasurement: itemEdit('qa.item.fromMeasurement', 'Fill answer from measurement', (i, a: { measurement: AnswerMeasurement }) =>
    setAnswerFromMeasurement(i, a.measurement),
  ),
  reference: itemEdit('qa.item.reference', 'Edit reference answer', (i, a: { text: string }) => setReference(i, a.text)),
  // The category is checked against the project's own taxonomy.
  category: defineEdit('qa.item.category', 'Set category', (p, a: { itemId: string; category: QaItem['category'] }) =>
    withItems(p, (items) => items.map((i) => (i.id === a.itemId ? setCategory(i, p.qa.taxonomy, a.category) : i))),
  ),

  editStep: trail('qa.trail.edit', 'Edit step', (t, a: { k: number; patch: Partial<Pick<TrailStep, 'title' | 'text' | 'kind'>> }) => editStep(t, a.k, a.patch)),
  addStep: trail('qa.trail.add', 'Add step', (t, a: { after: number }) => addStep(t, a.after)),
  moveStep: trail('qa.trail.move', 'Move step', (t, a: { from: number; to: number }) => moveStep(t, a.from, a.to)),
  splitStep: trail('qa.trail.split', 'Split step', (t, a: { k: number; at: number }) => splitStep(t, a.k, a.at)),
  mergeSteps: trail('qa.trail.merge', 'Merge steps', (t, a: { k: number }) => mergeSteps(t, a.k)),
  removeStep: trail('qa.trail.remove', 'Remove step', (t, a: { k: number }) => removeStep(t, a.k)),
  link: trail('qa.trail.link', 'Link', (t, a: { k: number; kind: LinkKind; id: string }) => linkStep(t, a.k, a.kind, a.id)),
  unlink: trail('qa.trail.unlink', 'Unlink', (t, a: { k: number; kind: LinkKind; id: string }) => unlinkStep(t, a.k, a.kind, a.id)),

  saveViewpoint: anchors('qa.anchor.saveViewpoint', 'Save viewpoint', (x, a: { viewpoint: Viewpoint }) => ({
    ...x,
    viewpoints: [...x.viewpoints, a.viewpoint],
  })),
  removeViewpoint: itemEdit('qa.anchor.removeViewpoint', 'Remove viewpoint', (i, a: { id: string }) => removeAnchor(i, 'viewpoints', a.id)),
  placeMark: anchors('qa.anchor.placeMark', 'Place mark', (x, a: { at: { x: number; y: number; z: number } }) => {
    const number = Math.max(0, ...x.marks.map((m) => m.number)) + 1;
    return { ...x, marks: [...x.marks, { id: `mark_${number}`, number, position: a.at, label: '' }] };
  }),
  nameMark: itemEdit('qa.anchor.nameMark', 'Name mark', (i, a: { id: string; label: string }) => setMarkLabel(i, a.id, a.label)),
  removeMark: itemEdit('qa.anchor.removeMark', 'Remove mark', (i, a: { id: string }) => removeAnchor(i, 'marks', a.id)),
  referenceNode: anchors('qa.anchor.referenceNode', 'Reference node', (x, a: { id: string }) => ({ ...x, nodes: [...new Set([...x.nodes, a.id])] })),
  unreferenceNode: anchors('qa.anchor.unreferenceNode', 'Remove node reference', (x, a: { id: string }) => ({
    ...x,
    nodes: x.nodes.filter((n) => n !== a.id),
  })),
  agent: anchors('qa.anchor.agent', 'Set agent', (x, a: { agent: string | undefined }) => {
    const { agent: _old, ...rest } = x;
    return a.agent ? { ...rest, agent: a.agent } : rest;
  }),
} as const;

export const ITEM_EDITS = {
  requiredReviews: itemEdit('qa.item.requiredReviews', 'Set reviews needed', (i, a: { n: number }) => refreshStatus(setRequiredReviews(i, a.n))),
  submit: itemEdit('qa.item.submit', 'Submit for review', (i) => submitForReview(i)),
  ...reopening(CONTENT_EDITS),
} as const;

export const ITEM_LIST_EDITS = {
  add: defineEdit('qa.items.add', 'Add items', (p, a: { items: QaItem[] }) => withItems(p, (items) => [...items, ...a.items])),
  remove: defineEdit('qa.items.remove', 'Delete item', (p, a: { itemId: string }) => withItems(p, (items) => items.filter((i) => i.id !== a.itemId))),
  /** Read items files: CapNav questions (with the hallucination lists they carry) and generated items, as one step. */
  import: defineEdit('qa.items.import', 'Import items', (p, a: { capnav: CapnavItemsRead; generated: QaItem[] }) => {
    const withCapnav = applyCapnavQaImport(p, a.capnav);
    return { ...withCapnav, qa: { ...withCapnav.qa, items: [...withCapnav.qa.items, ...a.generated] } };
  }),
  taxonomy: defineEdit('qa.taxonomy.replace', 'Replace the taxonomy', (p, a: { taxonomy: Taxonomy }) =>
    p.qa.taxonomy === a.taxonomy ? p : { ...p, qa: { ...p.qa, taxonomy: a.taxonomy } },
  ),
  defaultTaxonomy: defineEdit('qa.taxonomy.default', 'Restore the default taxonomy', (p: Project) =>
    p.qa.taxonomy === DEFAULT_TAXONOMY ? p : { ...p, qa: { ...p.qa, taxonomy: DEFAULT_TAXONOMY } },
  ),
} as const;
