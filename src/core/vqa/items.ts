import type { Answer, QaItem, TrailStep } from './item.ts';
import { pruneLinks } from './trail.ts';
import type { Taxonomy } from './taxonomy.ts';

/**
 * Creating and editing question-answer items. Every helper takes an item and returns an item
 * that still satisfies QaItemSchema; when nothing changes it returns the same object, so the
 * caller can skip an empty undo step by identity. Edits leave the review status alone; the
 * studio's edits send an item with verdicts back to review when its content changes (reopen.ts).
 */

/** `qa_<n>` one above the highest `qa_<number>` in use: ids of deleted items are not handed out again while a higher one exists. */
export function nextItemId(items: readonly Pick<QaItem, 'id'>[]): string {
  return `qa_${highestItemNumber(items) + 1}`;
}

export function highestItemNumber(items: readonly Pick<QaItem, 'id'>[]): number {
  let max = 0;
  for (const { id } of items) {
    const m = /^qa_(\d+)$/.exec(id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max;
}

export interface NewItem {
  sceneId: string;
  author: string;
  createdAt: string;
  question?: string;
  answer?: Answer;
  category?: QaItem['category'];
  requiredReviews?: number;
}

/** A written item, as a draft: the author submits it for review when it is ready. */
export function createWrittenItem(existing: readonly Pick<QaItem, 'id'>[], init: NewItem): QaItem {
  return {
    id: nextItemId(existing),
    sceneId: init.sceneId,
    question: init.question ?? '',
    answer: init.answer ?? { kind: 'freetext', reference: '' },
    category: init.category ?? { capability: '' },
    anchors: { viewpoints: [], marks: [], nodes: [], edges: [] },
    trail: [],
    source: 'written',
    status: 'draft',
    requiredReviews: clampReviews(init.requiredReviews ?? 1),
    reviews: [],
    createdAt: init.createdAt,
    author: init.author,
  };
}

/** A draft goes to the review queue; any other status is left as it is. */
export function submitForReview(item: QaItem): QaItem {
  return item.status === 'draft' ? { ...item, status: 'pending' } : item;
}

export function setQuestion(item: QaItem, question: string): QaItem {
  return item.question === question ? item : { ...item, question };
}

export function withTrail(item: QaItem, trail: TrailStep[]): QaItem {
  return item.trail === trail ? item : { ...item, trail };
}

const clampReviews = (n: number) => Math.min(5, Math.max(1, Math.round(Number.isFinite(n) ? n : 1)));

/** How many independent reviews decide the item (1–5). The status is re-derived by the review helpers. */
export function setRequiredReviews(item: QaItem, n: number): QaItem {
  const v = clampReviews(n);
  return item.requiredReviews === v ? item : { ...item, requiredReviews: v };
}

/**
 * Set the category. A subcategory that does not belong to the chosen capability is dropped,
 * and so is a task type the taxonomy does not list, so an item never names a pair that
 * cannot exist. An unknown capability is kept (the checks report it) so nothing typed is lost.
 */
export function setCategory(item: QaItem, taxonomy: Taxonomy, category: QaItem['category']): QaItem {
  const cap = taxonomy.capabilities.find((c) => c.id === category.capability);
  const next: QaItem['category'] = { capability: category.capability };
  if (category.subcategory && cap?.subcategories.some((s) => s.id === category.subcategory)) next.subcategory = category.subcategory;
  if (category.taskType && taxonomy.taskTypes.some((t) => t.id === category.taskType)) next.taskType = category.taskType;
  const same = item.category.capability === next.capability && item.category.subcategory === next.subcategory && item.category.taskType === next.taskType;
  return same ? item : { ...item, category: next };
}

/**
 * Change the kind of answer, carrying over what translates: the correct option's text or the
 * number with its unit become a free-text reference; a yes/no reference becomes a yes/no answer;
 * otherwise the new kind starts from a neutral answer (two options A/B, yes, 0 without unit).
 */
export function setAnswerKind(item: QaItem, kind: Answer['kind']): QaItem {
  const a = item.answer;
  if (a.kind === kind) return item;
  const asText =
    a.kind === 'mcq'
      ? (a.options.find((o) => o.key === a.correct)?.text ?? '')
      : a.kind === 'yesno'
        ? a.correct
          ? 'yes'
          : 'no'
        : a.kind === 'numeric'
          ? `${a.value}${a.unit ? ' ' + a.unit : ''}`
          : a.reference;
  let answer: Answer;
  switch (kind) {
    case 'freetext':
      answer = { kind, reference: asText };
      break;
    case 'yesno':
      answer = { kind, correct: !/^\s*no\b/i.test(asText) };
      break;
    case 'numeric': {
      const n = Number.parseFloat(asText);
      answer = { kind, value: Number.isFinite(n) ? n : 0, unit: '', tolerance: 0.1 };
      break;
    }
    case 'mcq':
      answer = {
        kind,
        options: [
          { key: 'A', text: asText },
          { key: 'B', text: '' },
        ],
        correct: 'A',
      };
      break;
  }
  return { ...item, answer };
}

type Of<K extends Answer['kind']> = Extract<Answer, { kind: K }>;

function editAnswer<K extends Answer['kind']>(item: QaItem, kind: K, fn: (a: Of<K>) => Of<K>): QaItem {
  if (item.answer.kind !== kind) return item;
  const next = fn(item.answer as Of<K>);
  return next === item.answer ? item : { ...item, answer: next };
}

/** Option keys A, B, … Z, then AA, AB …: the next key not in use. */
export function nextOptionKey(options: readonly { key: string }[]): string {
  const used = new Set(options.map((o) => o.key));
  for (let i = 0; ; i++) {
    const key = i < 26 ? String.fromCharCode(65 + i) : String.fromCharCode(65 + Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26));
    if (!used.has(key)) return key;
  }
}

export function addOption(item: QaItem, text = ''): QaItem {
  return editAnswer(item, 'mcq', (a) => ({ ...a, options: [...a.options, { key: nextOptionKey(a.options), text }] }));
}

export function setOptionText(item: QaItem, key: string, text: string): QaItem {
  return editAnswer(item, 'mcq', (a) => {
    if (!a.options.some((o) => o.key === key && o.text !== text)) return a;
    return { ...a, options: a.options.map((o) => (o.key === key ? { ...o, text } : o)) };
  });
}

/** Remove an option; if it was the correct one, the first remaining option becomes correct (the checks ask to confirm it). */
export function removeOption(item: QaItem, key: string): QaItem {
  return editAnswer(item, 'mcq', (a) => {
    if (!a.options.some((o) => o.key === key)) return a;
    const options = a.options.filter((o) => o.key !== key);
    return { ...a, options, correct: a.correct === key ? (options[0]?.key ?? '') : a.correct };
  });
}

/** Mark an option correct; a key that is not among the options is refused. */
export function setCorrectOption(item: QaItem, key: string): QaItem {
  return editAnswer(item, 'mcq', (a) => (a.correct === key || !a.options.some((o) => o.key === key) ? a : { ...a, correct: key }));
}

export function setYesNo(item: QaItem, correct: boolean): QaItem {
  return editAnswer(item, 'yesno', (a) => (a.correct === correct ? a : { ...a, correct }));
}

/** Value, unit or tolerance of a numeric answer; non-finite values and negative tolerances are refused. */
export function setNumeric(item: QaItem, patch: { value?: number; unit?: string; tolerance?: number }): QaItem {
  return editAnswer(item, 'numeric', (a) => {
    const next = { ...a };
    if (patch.value !== undefined && Number.isFinite(patch.value)) next.value = patch.value;
    if (patch.unit !== undefined) next.unit = patch.unit.trim();
    if (patch.tolerance !== undefined && Number.isFinite(patch.tolerance) && patch.tolerance >= 0) next.tolerance = patch.tolerance;
    return next.value === a.value && next.unit === a.unit && next.tolerance === a.tolerance ? a : next;
  });
}

export function setReference(item: QaItem, reference: string): QaItem {
  return editAnswer(item, 'freetext', (a) => (a.reference === reference ? a : { ...a, reference }));
}

export type AnswerMeasurement = NonNullable<QaItem['measurement']>;

/**
 * Fill a numeric answer from a measurement taken in the scene: the value in metres, rounded to
 * the centimetre (a scan is not more precise than that, and the scorer's tolerance is relative),
 * and the measurement itself kept as evidence. An existing numeric tolerance is kept.
 */
export function setAnswerFromMeasurement(item: QaItem, measurement: AnswerMeasurement): QaItem {
  const tolerance = item.answer.kind === 'numeric' ? item.answer.tolerance : 0.1;
  const value = Math.round(measurement.value * 100) / 100;
  const m = item.measurement;
  const same =
    m &&
    m.kind === measurement.kind &&
    m.value === measurement.value &&
    item.answer.kind === 'numeric' &&
    item.answer.value === value &&
    item.answer.unit === 'm' &&
    m.points.length === measurement.points.length &&
    m.points.every((p, i) => p.x === measurement.points[i]!.x && p.y === measurement.points[i]!.y && p.z === measurement.points[i]!.z);
  if (same) return item;
  return {
    ...item,
    answer: { kind: 'numeric', value, unit: 'm', tolerance },
    measurement: { kind: measurement.kind, value: measurement.value, points: measurement.points.map((p) => ({ ...p })) },
  };
}

/** Remove a mark or a viewpoint from the anchors, and every trail link to it (one edit, so one undo step). */
export function removeAnchor(item: QaItem, kind: 'marks' | 'viewpoints', id: string): QaItem {
  const list = item.anchors[kind] as { id: string }[];
  if (!list.some((x) => x.id === id)) return item;
  const kept = list.filter((x) => x.id !== id);
  const trail = pruneLinks(item.trail, { [kind]: new Set(kept.map((x) => x.id)) });
  return { ...item, anchors: { ...item.anchors, [kind]: kept }, trail };
}

/** Name a mark ("sofa", "door 2"): the label drawn beside its number. */
export function setMarkLabel(item: QaItem, id: string, label: string): QaItem {
  const m = item.anchors.marks.find((x) => x.id === id);
  if (!m || m.label === label) return item;
  return { ...item, anchors: { ...item.anchors, marks: item.anchors.marks.map((x) => (x.id === id ? { ...x, label } : x)) } };
}
