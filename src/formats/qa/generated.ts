/**
 * Generated question-answer items with reasoning trails, from a question generator (a VLM
 * pipeline, a script), for review in Traversa.
 *
 * FORMAT. A `.json` file holding a list of items, or `{ "generator": "...", "items": [...] }`
 * (the top-level generator applies to items that name none); or a `.jsonl` / `.ndjson` file with
 * one item object per line (blank lines skipped). One item:
 *
 *   {
 *     "sceneId": "HM3D00025",                  // a scene of the project (required)
 *     "question": "How far is the sofa from the door, as seen from the hall?",
 *     "answer": { "kind": "numeric", "value": 2.4, "unit": "m", "tolerance": 0.1 },
 *        //  or { "kind": "mcq", "options": [{ "key": "A", "text": "..." }, ...], "correct": "A" }
 *        //  or { "kind": "yesno", "correct": true }
 *        //  or { "kind": "freetext", "reference": "..." }
 *     "category": { "capability": "spatial", "subcategory": "DT", "taskType": "affordance" },
 *        // capability / subcategory / task-type ids of the project's taxonomy; subcategory and taskType optional
 *     "anchors": {                              // optional, every list optional
 *       "nodes": ["node_12"], "edges": ["edge_3"],   // ids in the scene graph (an edge may also be "a|b")
 *       "marks": [{ "id": "mark_1", "number": 1, "position": { "x": 0, "y": 1, "z": 2 }, "label": "sofa" }],
 *                                               // id optional, defaults to "mark_<number>"
 *       "viewpoints": [{ "id": "vp_1", "name": "hall", "camera": { "mode": "first",
 *                        "position": {...}, "target": {...}, "fov": 60 } }],   // id optional, defaults to "vp_<n>"
 *       "agent": "WHEELCHAIR"                   // optional
 *     },
 *     "trail": [                                // the reasoning trail, in order (may be empty)
 *       { "title": "Find the sofa", "text": "The grey sofa stands ...", "kind": "perception",
 *         "links": { "marks": ["mark_1"], "nodes": [], "edges": [], "viewpoints": [] } }
 *     ],                                        // kind: perception | spatial | physical | safety | conclusion;
 *                                               // title optional (""); links optional, mark/viewpoint links name anchor ids
 *     "generator": "gpt-4o-2024-08-06 / prompt v3",   // required here or at the top of a .json file
 *     "requiredReviews": 2                      // optional, 1–5 (default: the import's setting, else 1)
 *   }
 *
 * Items come in as `source: "generated"`, `status: "pending"`, with ids `qa_<n>` after the
 * project's, trail step ids `s1…` and origins `generated`, and their own copy of question, answer
 * and trail in `generated` so the reviewer's changes can be shown against it.
 *
 * Every bad record is reported (file, location, message); if any is bad — wrong shape, a scene the
 * project does not have, duplicate mark numbers or anchor ids — nothing is imported. Content
 * problems an item can carry into review (an MCQ key that is not an option, a node not in the
 * graph, a missing reference frame) are reported as errors or warnings and do not block.
 */
import { z } from 'zod';
import { hasBlocking, type Problem } from '../../core/problems.ts';
import type { Project } from '../../core/project.ts';
import { checkQaItem } from '../../core/vqa/checks.ts';
import { AnswerSchema, STEP_KINDS, ViewpointSchema, type QaItem, type TrailStep } from '../../core/vqa/item.ts';
import { highestItemNumber } from '../../core/vqa/items.ts';
import { cloneTrail } from '../../core/vqa/trail.ts';
import { checkShape, type SourceFile } from '../json.ts';
import { FIELD_LIMITS, findingProblem, oversizedFields, recordsOf, relocate, unknownFields, type Located } from './records.ts';
import { completed } from '../../core/steps.ts';
import { append } from '../../core/arrays.ts';

const Vec3 = z.object({ x: z.number(), y: z.number(), z: z.number() });
const ids = z.array(z.string().min(1)).default([]);
const RecordLinks = z.object({ viewpoints: ids, nodes: ids, edges: ids, marks: ids });
const RecordStep = z.object({ title: z.string().default(''), text: z.string(), kind: z.enum(STEP_KINDS), links: RecordLinks.optional() });
const RecordMark = z.object({ id: z.string().min(1).optional(), number: z.number().int().positive(), position: Vec3, label: z.string().default('') });
const RecordViewpoint = ViewpointSchema.extend({ id: z.string().min(1).optional(), name: z.string().default('') });

export const GeneratedRecordSchema = z.object({
  sceneId: z.string().min(1),
  question: z.string().min(1),
  answer: AnswerSchema,
  category: z.object({ capability: z.string().min(1), subcategory: z.string().min(1).optional(), taskType: z.string().min(1).optional() }),
  anchors: z
    .object({
      nodes: ids,
      edges: ids,
      marks: z.array(RecordMark).default([]),
      viewpoints: z.array(RecordViewpoint).default([]),
      agent: z.string().min(1).optional(),
    })
    .optional(),
  trail: z.array(RecordStep),
  generator: z.string().min(1),
  requiredReviews: z.number().int().min(1).max(5).optional(),
});
export type GeneratedRecord = z.infer<typeof GeneratedRecordSchema>;

const KNOWN_FIELDS = ['sceneId', 'question', 'answer', 'category', 'anchors', 'trail', 'generator', 'requiredReviews'];
const KNOWN_STEP_FIELDS = ['title', 'text', 'kind', 'links'];

export interface GeneratedImportOptions {
  createdAt: string;
  /** Reviews each imported item needs (overlap), unless the record says; default 1. */
  requiredReviews?: number;
}

export interface QaImport {
  /** Empty when any problem is fatal: an import applies whole or not at all. */
  items: QaItem[];
  problems: Problem[];
}

export function readGeneratedItems(files: readonly SourceFile[], project: Pick<Project, 'scenes' | 'qa'>, options: GeneratedImportOptions): QaImport {
  return completed(readGeneratedItemsSteps(files, project, options));
}

/**
 * `readGeneratedItems` as steps (a `yield` every 100 records), so that the studio can read 20,000
 * items in slices (persistence/sliced.ts) instead of in one long task.
 */
export function* readGeneratedItemsSteps(
  files: readonly SourceFile[],
  project: Pick<Project, 'scenes' | 'qa'>,
  options: GeneratedImportOptions,
): Generator<void, QaImport, void> {
  const problems: Problem[] = [];
  let count = 0;
  const items: QaItem[] = [];
  let n = highestItemNumber(project.qa.items);
  const seen = new Map<string, string>();
  for (const q of project.qa.items) seen.set(questionKey(q), q.id);

  for (const file of files) {
    const { records, top, problems: fileProblems } = recordsOf(file, 'items');
    append(problems, fileProblems);
    if (fileProblems.length === 0 && records.length === 0)
      problems.push({ severity: 'warning', code: 'qa.empty', file: file.path, location: '', message: 'the file holds no items' });
    const defaultGenerator = typeof top.generator === 'string' && top.generator !== '' ? top.generator : undefined;
    if (count + records.length > FIELD_LIMITS.records) {
      problems.push({
        severity: 'fatal',
        code: 'qa.too-large',
        file: file.path,
        location: '',
        message: `${(count + records.length).toLocaleString('en')} items in this import so far; one import holds at most ${FIELD_LIMITS.records.toLocaleString('en')} (split the file)`,
      });
      break;
    }
    count += records.length;
    for (const [i, rec] of records.entries()) {
      if (i % 100 === 99) yield;
      const oversized = oversizedFields(file.path, rec);
      if (oversized.length) {
        append(problems, oversized);
        continue;
      }
      const value = defaultGenerator && isObject(rec.value) && rec.value.generator === undefined ? { ...rec.value, generator: defaultGenerator } : rec.value;
      const item = readRecord(file.path, rec, value, project, `qa_${n + 1}`, options, problems);
      if (!item) continue;
      n++;
      const key = questionKey(item);
      const earlier = seen.get(key);
      if (earlier)
        problems.push({
          severity: 'warning',
          code: 'qa.duplicate-question',
          file: file.path,
          location: rec.at(['question']),
          message: `the same question for scene ${item.sceneId} as item ${earlier}`,
        });
      else seen.set(key, item.id);
      items.push(item);
    }
  }
  return { items: hasBlocking(problems) ? [] : items, problems };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const questionKey = (i: Pick<QaItem, 'sceneId' | 'question'>) => `${i.sceneId}\n${i.question.trim().replace(/\s+/g, ' ').toLowerCase()}`;

function readRecord(
  path: string,
  rec: Located,
  value: unknown,
  project: Pick<Project, 'scenes' | 'qa'>,
  id: string,
  options: GeneratedImportOptions,
  problems: Problem[],
): QaItem | null {
  const shape = checkShape(path, value, GeneratedRecordSchema, rec.base);
  if (!shape.ok) {
    append(problems, relocate(shape.problems, rec));
    return null;
  }
  const r = shape.value;
  append(problems, unknownFields(path, rec, value, KNOWN_FIELDS));
  (value as { trail: unknown[] }).trail.forEach((s, i) => append(problems, unknownFields(path, rec, s, KNOWN_STEP_FIELDS, ['trail', i])));

  const fatal = (location: string, message: string, code = 'qa.invalid') => problems.push({ severity: 'fatal', code, file: path, location, message });
  const before = problems.length;
  const scene = project.scenes.find((s) => s.id === r.sceneId);
  if (!scene)
    fatal(rec.at(['sceneId']), `scene ${r.sceneId} is not in the project (${project.scenes.map((s) => s.id).join(', ') || 'no scenes'})`, 'qa.unknown-scene');
  const anchors = r.anchors ?? { nodes: [], edges: [], marks: [], viewpoints: [] };
  const marks = anchors.marks.map((m) => ({ id: m.id ?? `mark_${m.number}`, number: m.number, position: m.position, label: m.label }));
  const viewpoints = anchors.viewpoints.map((v, i) => ({ ...v, id: v.id ?? `vp_${i + 1}` }));
  // An id the record left out is made up from the mark's number or the viewpoint's place; two made-up
  // mark ids collide only when the numbers do, which the number check below reports (once).
  const given = { marks: anchors.marks.map((m) => m.id !== undefined), viewpoints: anchors.viewpoints.map((v) => v.id !== undefined) };
  for (const [list, what, field] of [
    [marks, 'mark', 'marks'],
    [viewpoints, 'viewpoint', 'viewpoints'],
  ] as const) {
    const firstAt = new Map<string, number>();
    list.forEach((x, i) => {
      const first = firstAt.get(x.id);
      if (first === undefined) {
        firstAt.set(x.id, i);
        return;
      }
      if (given[field][i] || given[field][first]) fatal(rec.at(['anchors', field, i]), `${what} id ${x.id} is used by ${what} ${first + 1} too`);
    });
  }
  const numbers = new Map<number, number>();
  marks.forEach((m, i) => {
    if (numbers.has(m.number))
      fatal(rec.at(['anchors', 'marks', i, 'number']), `mark number ${m.number} is used twice: the marks drawn on the scene would be ambiguous`);
    else numbers.set(m.number, i);
  });
  if (problems.length > before || !scene) return null;

  const trail: TrailStep[] = r.trail.map((s, i) => ({
    id: `s${i + 1}`,
    title: s.title,
    text: s.text,
    kind: s.kind,
    links: s.links ?? { viewpoints: [], nodes: [], edges: [], marks: [] },
    origin: 'generated',
  }));
  const item: QaItem = {
    id,
    sceneId: r.sceneId,
    question: r.question,
    answer: r.answer,
    category: {
      capability: r.category.capability,
      ...(r.category.subcategory ? { subcategory: r.category.subcategory } : {}),
      ...(r.category.taskType ? { taskType: r.category.taskType } : {}),
    },
    anchors: { viewpoints, marks, nodes: anchors.nodes, edges: anchors.edges, ...(anchors.agent ? { agent: anchors.agent } : {}) },
    trail,
    source: 'generated',
    generated: { question: r.question, answer: structuredClone(r.answer), trail: cloneTrail(trail), generator: r.generator },
    status: 'pending',
    requiredReviews: r.requiredReviews ?? Math.min(5, Math.max(1, options.requiredReviews ?? 1)),
    reviews: [],
    createdAt: options.createdAt,
    author: '',
    importedFrom: { file: path, at: options.createdAt },
  };
  for (const f of checkQaItem(item, { scene, taxonomy: project.qa.taxonomy })) problems.push(findingProblem(f, path, rec));
  return item;
}
