/**
 * The ground truth for scoring answers: the items of a QA bundle (see bundle.ts), read from its
 * `qa/items.json` (`{ "format": "traversa-qa", "formatVersion": 1, "items": [...] }`, or a bare
 * list) or `qa/items.jsonl` (one record per line), or the accepted items of a Traversa project
 * bundle (`*.traversa.json`). Only the fields scoring needs are checked: id, sceneId, question,
 * answer, category.capability (and, when present, category.taskType, source and the trail's
 * step texts, for FoMER's reasoning scores).
 *
 * A record that does not have them is reported by file and location (`/items/3/answer/kind`,
 * `line 4 /answer`) and left out, as is a line of a JSON Lines file that is not JSON and a second
 * record with an id already read. A JSON file that does not parse, or of another format or a
 * newer version, yields no items.
 */
import { z } from 'zod';
import type { Problem } from '../../core/problems.ts';
import type { QaTruth } from '../../core/scoring/vqa/qaAnswers.ts';
import { AnswerSchema, type QaItem } from '../../core/vqa/item.ts';
import { benchmarkItems } from '../../core/vqa/navigationAnswers.ts';
import { looksLikeBundle, readBundle } from '../bundle.ts';
import { checkShape, type SourceFile } from '../json.ts';
import { QA_BUNDLE_FORMAT, QA_BUNDLE_PATHS, QA_BUNDLE_VERSION } from './bundle.ts';
import { isJsonLines, recordsOf, relocate } from './records.ts';
import { append } from '../../core/arrays.ts';

export const QaTruthRecordSchema = z.object({
  id: z.string().min(1),
  sceneId: z.string().min(1),
  question: z.string(),
  answer: AnswerSchema,
  category: z.object({ capability: z.string().min(1), taskType: z.string().optional() }),
  source: z.string().optional(),
  trail: z.array(z.object({ title: z.string().default(''), text: z.string() })).optional(),
});

/** Where a bundle folder keeps its items, in order of preference. */
export const GROUND_TRUTH_FILES = [QA_BUNDLE_PATHS.items, 'items.json', QA_BUNDLE_PATHS.itemsJsonl, 'items.jsonl'] as const;

/** The fields scoring uses, of a bundle record or a project's item. */
export function truthOf(r: z.infer<typeof QaTruthRecordSchema> | QaItem): QaTruth {
  const t: QaTruth = { id: r.id, sceneId: r.sceneId, question: r.question, answer: r.answer, category: { capability: r.category.capability } };
  if (r.category.taskType !== undefined) t.category.taskType = r.category.taskType;
  if (r.source !== undefined) t.source = r.source;
  if (r.trail !== undefined) t.trail = r.trail.map((st) => ({ title: st.title, text: st.text }));
  return t;
}

/**
 * The ground truth of a Traversa project bundle (`*.traversa.json`, src/formats/bundle.ts): its
 * ACCEPTED items, as the studio's QA-answer scoring takes them, so the command line and the
 * browser score the same items from the same file.
 */
export function readProjectBundleTruth(file: SourceFile): { items: QaTruth[]; problems: Problem[] } {
  const read = readBundle(file);
  if (!read.project) return { items: [], problems: read.problems };
  // Navigation questions as one item per agent, answered by the labels (as the bundle export writes them).
  const items = benchmarkItems(read.project).items.map(truthOf);
  const problems = [...read.problems];
  if (items.length === 0)
    problems.push({
      severity: 'warning',
      code: 'qa.empty',
      file: file.path,
      location: '',
      message: `the project holds no accepted QA items (${read.project.qa.items.length} in all)`,
    });
  return { items, problems };
}

export function readQaGroundTruth(file: SourceFile): { items: QaTruth[]; problems: Problem[] } {
  if (looksLikeBundle(file)) return readProjectBundleTruth(file);
  const read = recordsOf(file, 'items');
  const { records, top } = read;
  // A JSON file that does not parse has no records; a JSON Lines file loses only its bad lines.
  if (isJsonLines(file.path)) read.problems = read.problems.map((p) => ({ ...p, severity: 'error', message: `${p.message}; item left out` }));
  else if (read.problems.length) return { items: [], problems: read.problems };
  const problems = read.problems;
  const fatal = (message: string, location = '') => ({
    items: [],
    problems: [{ severity: 'fatal' as const, code: 'qa.format', file: file.path, location, message }],
  });
  if (top.format !== undefined && top.format !== QA_BUNDLE_FORMAT)
    return fatal(`"format" is ${JSON.stringify(top.format)}, not "${QA_BUNDLE_FORMAT}": not a Traversa QA bundle`, '/format');
  if (top.formatVersion !== undefined && top.formatVersion !== QA_BUNDLE_VERSION) {
    return fatal(`formatVersion ${JSON.stringify(top.formatVersion)} is not ${QA_BUNDLE_VERSION}, the version this Traversa reads`, '/formatVersion');
  }
  const items: QaTruth[] = [];
  const seen = new Map<string, string>();
  for (const rec of records) {
    const shape = checkShape(file.path, rec.value, QaTruthRecordSchema, rec.base);
    if (!shape.ok) {
      append(
        problems,
        relocate(shape.problems, rec).map((p) => ({ ...p, severity: 'error' as const, message: `${p.message}; item left out` })),
      );
      continue;
    }
    const r = shape.value;
    const first = seen.get(r.id);
    if (first !== undefined) {
      problems.push({
        severity: 'error',
        code: 'qa.duplicate-id',
        file: file.path,
        location: rec.at(['id']),
        message: `item id ${r.id} was read already at ${first}; this one is left out`,
      });
      continue;
    }
    seen.set(r.id, rec.at());
    const a = r.answer;
    if (a.kind === 'mcq' && !a.options.some((o) => o.key === a.correct)) {
      problems.push({
        severity: 'warning',
        code: 'qa.mcq-key',
        file: file.path,
        location: rec.at(['answer', 'correct']),
        message: `the correct key ${a.correct} is not one of the options: no reply can be right`,
      });
    }
    items.push(truthOf(r));
  }
  if (items.length === 0 && problems.length === 0)
    problems.push({ severity: 'warning', code: 'qa.empty', file: file.path, location: '', message: 'the file holds no items' });
  return { items, problems };
}
