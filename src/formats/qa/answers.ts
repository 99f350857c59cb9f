/**
 * A model's answers to question-answer items, for scoring (src/core/scoring/vqa/qaAnswers.ts).
 *
 * FORMAT. JSON Lines (`.jsonl` / `.ndjson`), one answer per line, blank lines skipped:
 *
 *   {"id": "qa_3", "answer": "B", "model": "gpt-4o"}
 *   {"id": "qa_4", "answer": "No, the door is too narrow.", "model": "gpt-4o"}
 *   {"id": "qa_7", "answer": "It leans against the wall.", "model": "gpt-4o", "judgeScore": 80}
 *
 *   id          the item's id in the bundle / project (required)
 *   answer      the model's reply as it wrote it (required); a number or true/false is read as text
 *   model       the model's name (optional; default: the file's name without its extension)
 *   judgeScore  a judge's 0–100 score of a free-text reply (optional; null or absent: not judged)
 *
 * A `.json` file holding a list of such objects (or `{ "predictions": [...] }`) is read too.
 * A line that is not JSON or not such an object is reported by file and `line N` and skipped; the
 * other lines are still read. Other fields are ignored, with one warning per field and file.
 */
import { z } from 'zod';
import type { Problem } from '../../core/problems.ts';
import type { QaPrediction } from '../../core/scoring/vqa/qaAnswers.ts';
import { checkShape, type SourceFile } from '../json.ts';
import { recordsOf, relocate } from './records.ts';

export const QaAnswerSchema = z.object({
  id: z.string().min(1),
  answer: z.union([z.string(), z.number(), z.boolean()], {
    error: (issue) => (issue.input === undefined ? 'the reply is missing' : 'should be the reply as text'),
  }),
  model: z.string().min(1).optional(),
  judgeScore: z.number().min(0).max(100).nullable().optional(),
});

const KNOWN = ['id', 'answer', 'model', 'judgeScore'];

/** The model a file's answers belong to when its lines name none: the file's name without folders and extension. */
export const modelFromPath = (path: string): string => path.split('/').pop()!.replace(/\.[^.]*$/, '') || 'model';

export function readQaAnswers(files: readonly SourceFile[]): { predictions: QaPrediction[]; problems: Problem[] } {
  const predictions: QaPrediction[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    const { records, problems: fileProblems } = recordsOf(file, 'predictions');
    // A bad line is skipped, not the whole file: an error, not a fatal problem.
    problems.push(...fileProblems.map((p) => ({ ...p, severity: 'error' as const, message: `${p.message}; line skipped` })));
    if (fileProblems.length === 0 && records.length === 0) problems.push({ severity: 'warning', code: 'qa.empty', file: file.path, location: '', message: 'the file holds no answers' });
    const stem = modelFromPath(file.path);
    const warned = new Set<string>();
    for (const rec of records) {
      // Plain safeParse first: checkShape's input reporting makes zod several times slower, and only a bad line needs it.
      const quick = QaAnswerSchema.safeParse(rec.value);
      if (!quick.success) {
        const shape = checkShape(file.path, rec.value, QaAnswerSchema, rec.base);
        if (!shape.ok) problems.push(...relocate(shape.problems, rec).map((p) => ({ ...p, severity: 'error' as const, message: `${p.message}; answer skipped` })));
        continue;
      }
      const r = quick.data;
      for (const k of Object.keys(rec.value as object)) {
        if (KNOWN.includes(k) || warned.has(k)) continue;
        warned.add(k);
        problems.push({ severity: 'warning', code: 'qa.unknown-field', file: file.path, location: rec.at([k]), message: `"${k}" is not a field of the answers format; ignored (here and on later lines)` });
      }
      const reply = typeof r.answer === 'boolean' ? (r.answer ? 'yes' : 'no') : String(r.answer);
      predictions.push({ id: r.id, model: r.model ?? stem, reply, ...(r.judgeScore !== undefined ? { judgeScore: r.judgeScore } : {}) });
    }
  }
  return { predictions, problems };
}
