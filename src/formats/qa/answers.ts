/**
 * A model's answers to question-answer items, for scoring (src/core/scoring/vqa/qaAnswers.ts).
 *
 * FORMAT. JSON Lines (`.jsonl` / `.ndjson`), one answer per line, blank lines skipped:
 *
 *   {"id": "qa_3", "answer": "B", "model": "gpt-4o"}
 *   {"id": "qa_4", "answer": "No, the door is too narrow.", "model": "gpt-4o"}
 *   {"id": "qa_7", "answer": "It leans against the wall.", "model": "gpt-4o", "judgeScore": 80}
 *   {"id": "qa_8", "answer": "B", "steps": ["The sofa is left of the door.", "So the answer is B."]}
 *
 *   id          the item's id in the bundle / project (required)
 *   answer      the model's reply as it wrote it (required); a number or true/false is read as text
 *   model       the model's name (optional; default: the file's name without its extension)
 *   judgeScore  a judge's 0–100 score of a free-text reply (optional; null or absent: not judged)
 *   steps       the model's step-by-step reasoning (optional): a list of texts, or of
 *               {"title", "text"} objects; judged against the item's trail (FoMER RA)
 *
 * Each file is its own run: when two files name the same model (by their lines' `model` or by
 * their names), each is scored as its own model, named `<model> (<file>)`, and `sameModel` says
 * so, with how many items both answer; nothing is pooled across files.
 *
 * A `.json` file holding a list of such objects (or `{ "predictions": [...] }`) is read too.
 * A line that is not JSON or not such an object is reported by file and `line N` and skipped; the
 * other lines are still read. Other fields are ignored, with one warning per field and file.
 */
import { z } from 'zod';
import type { Problem } from '../../core/problems.ts';
import type { QaPrediction, SameModel } from '../../core/scoring/vqa/qaAnswers.ts';
import { checkShape, type SourceFile } from '../json.ts';
import { recordsOf, relocate } from './records.ts';
import { append } from '../../core/arrays.ts';

export const QaAnswerSchema = z.object({
  id: z.string().min(1),
  answer: z.union([z.string(), z.number(), z.boolean()], {
    error: (issue) => (issue.input === undefined ? 'the reply is missing' : 'should be the reply as text'),
  }),
  model: z.string().min(1).optional(),
  judgeScore: z.number().min(0).max(100).nullable().optional(),
  steps: z
    .array(z.union([z.string(), z.object({ title: z.string().optional(), text: z.string() })]), {
      error: 'should be a list of reasoning steps (texts, or {"title", "text"} objects)',
    })
    .optional(),
});

const KNOWN = ['id', 'answer', 'model', 'judgeScore', 'steps'];

export type { SameModel };

/** The model a file's answers belong to when its lines name none: the file's name without folders and extension. */
export const modelFromPath = (path: string): string =>
  path
    .split('/')
    .pop()!
    .replace(/\.[^.]*$/, '') || 'model';

export function readQaAnswers(files: readonly SourceFile[]): { predictions: QaPrediction[]; problems: Problem[]; sameModel: SameModel[] } {
  const predictions: QaPrediction[] = [];
  const problems: Problem[] = [];
  const perFile: { file: string; from: number; to: number }[] = [];
  for (const file of files) {
    const from = predictions.length;
    const { records, problems: fileProblems } = recordsOf(file, 'predictions');
    // A bad line is skipped, not the whole file: an error, not a fatal problem.
    append(
      problems,
      fileProblems.map((p) => ({ ...p, severity: 'error' as const, message: `${p.message}; line skipped` })),
    );
    if (fileProblems.length === 0 && records.length === 0)
      problems.push({ severity: 'warning', code: 'qa.empty', file: file.path, location: '', message: 'the file holds no answers' });
    const stem = modelFromPath(file.path);
    const warned = new Set<string>();
    for (const rec of records) {
      // Plain safeParse first: checkShape's input reporting makes zod several times slower, and only a bad line needs it.
      const quick = QaAnswerSchema.safeParse(rec.value);
      if (!quick.success) {
        const shape = checkShape(file.path, rec.value, QaAnswerSchema, rec.base);
        if (!shape.ok)
          append(
            problems,
            relocate(shape.problems, rec).map((p) => ({ ...p, severity: 'error' as const, message: `${p.message}; answer skipped` })),
          );
        continue;
      }
      const r = quick.data;
      for (const k of Object.keys(rec.value as object)) {
        if (KNOWN.includes(k) || warned.has(k)) continue;
        warned.add(k);
        problems.push({
          severity: 'warning',
          code: 'qa.unknown-field',
          file: file.path,
          location: rec.at([k]),
          message: `"${k}" is not a field of the answers format; ignored (here and on later lines)`,
        });
      }
      const reply = typeof r.answer === 'boolean' ? (r.answer ? 'yes' : 'no') : String(r.answer);
      const p: QaPrediction = { id: r.id, model: r.model ?? stem, reply };
      if (r.judgeScore !== undefined) p.judgeScore = r.judgeScore;
      if (r.steps !== undefined) p.steps = r.steps.map((st) => (typeof st === 'string' ? st : st.title ? `${st.title}: ${st.text}` : st.text));
      predictions.push(p);
    }
    perFile.push({ file: file.path, from, to: predictions.length });
  }
  return { predictions, problems, sameModel: separateModels(predictions, perFile, problems) };
}

/**
 * A model named in several files is scored once per file, as `<model> (<file>)`: two runs of one
 * model are two results, and pooling them would let one file's answers silently replace the
 * other's. Renames the predictions in place and reports each file with a warning.
 */
function separateModels(predictions: QaPrediction[], perFile: readonly { file: string; from: number; to: number }[], problems: Problem[]): SameModel[] {
  const filesOf = new Map<string, number[]>();
  perFile.forEach((f, i) => {
    const seen = new Set<string>();
    for (let k = f.from; k < f.to; k++) seen.add(predictions[k]!.model);
    for (const m of seen) filesOf.set(m, [...(filesOf.get(m) ?? []), i]);
  });
  const out: SameModel[] = [];
  for (const [model, idx] of filesOf) {
    if (idx.length < 2) continue;
    const ids = idx.map(
      (i) =>
        new Set(
          predictions
            .slice(perFile[i]!.from, perFile[i]!.to)
            .filter((p) => p.model === model)
            .map((p) => p.id),
        ),
    );
    const count = new Map<string, number>();
    for (const s of ids) for (const id of s) count.set(id, (count.get(id) ?? 0) + 1);
    const sharedItems = [...count.values()].filter((n) => n > 1).length;
    const files = idx.map((i, j) => ({ file: perFile[i]!.file, scoredAs: `${model} (${perFile[i]!.file})`, answers: ids[j]!.size }));
    for (const [j, i] of idx.entries()) {
      const f = perFile[i]!;
      for (let k = f.from; k < f.to; k++) if (predictions[k]!.model === model) predictions[k]!.model = files[j]!.scoredAs;
      const others = files
        .filter((_, o) => o !== j)
        .map((o) => o.file)
        .join(', ');
      problems.push({
        severity: 'warning',
        code: 'qa.same-model',
        file: f.file,
        location: '',
        message: `model "${model}" is also in ${others}${sharedItems ? ` (${sharedItems} item${sharedItems === 1 ? '' : 's'} answered in both)` : ''}: each file is scored as its own model, this one as "${files[j]!.scoredAs}"`,
      });
    }
    out.push({ model, files, sharedItems });
  }
  return out;
}
