/**
 * Imported reasoning-trail judgements for FoMER's RA (`score-qa --verdicts <file>`, or "Load
 * reasoning scores…" in the Score view): a judge's scores of each model's reasoning steps.
 *
 * FORMAT. JSON, `{ "judge": "…", "verdicts": [...] }` or a bare list, or JSON Lines, one verdict a line:
 *
 *   { "judge": "gpt-4o-2024-05-13, authors' run",           // optional: named in the report
 *     "verdicts": [
 *       { "id": "qa_3", "model": "gpt-4o",                     // model optional: else for every model
 *         "criteria": { "Faithfulness": 8, "Spatial Reasoning": 7, "Physical Causality": 9, "Safety": 10,
 *                       "Commonsense": 8, "Hallucination": 9, "Redundancy": 7, "Semantic Coverage-Step": 8,
 *                       "Reasoning Alignment": 8, "Missing Step": 6 },
 *         "final": 7,                                         // optional: a free-text answer's score 0–10
 *         "explanation": "…" } ] }                            // optional
 *
 * Every criterion is scored 1–10 with 10 best (Hallucination 10 = nothing invented). An entry
 * without an id or criteria is reported by location and skipped; a criterion missing or out of
 * range, or one that is not FoMER's, is reported, and the item is left out of RA (and listed).
 * A second entry for the same item and model replaces the first, with a warning.
 */
import { z } from 'zod';
import type { Problem } from '../../core/problems.ts';
import type { ImportedTrailScores } from '../../core/scoring/judges/trail.ts';
import { FOMER_CRITERIA } from '../../core/scoring/vqa/fomer.ts';
import { checkShape, type SourceFile } from '../json.ts';
import { isJsonLines, recordsOf, relocate } from './records.ts';
import { append } from '../../core/arrays.ts';

const EntrySchema = z.object({
  id: z.string().min(1),
  model: z.string().min(1).optional(),
  criteria: z.record(z.string(), z.number()),
  final: z.number().min(0).max(10).nullable().optional(),
  explanation: z.string().optional(),
});

const NAMES = new Set(FOMER_CRITERIA.map((c) => c.name));

export function readTrailScores(file: SourceFile): { name: string; entries: ImportedTrailScores[]; problems: Problem[] } {
  const read = recordsOf(file, 'verdicts');
  const stem = file.path
    .split('/')
    .pop()!
    .replace(/\.[^.]+$/, '');
  const name = typeof read.top.judge === 'string' && read.top.judge.trim() ? read.top.judge.trim() : stem;
  // A bad line of a JSON Lines file is skipped; a JSON file that does not parse yields nothing (fatal).
  const problems: Problem[] = isJsonLines(file.path)
    ? read.problems.map((p) => ({ ...p, severity: 'error' as const, message: `${p.message}; line skipped` }))
    : [...read.problems];
  const entries: ImportedTrailScores[] = [];
  const seen = new Map<string, string>();
  const unknown = new Set<string>();
  for (const rec of read.records) {
    const shape = checkShape(file.path, rec.value, EntrySchema, rec.base);
    if (!shape.ok) {
      append(
        problems,
        relocate(shape.problems, rec).map((p) => ({ ...p, severity: 'error' as const, message: `${p.message}; verdict skipped` })),
      );
      continue;
    }
    const v = shape.value;
    for (const [k, n] of Object.entries(v.criteria)) {
      if (!NAMES.has(k)) {
        if (!unknown.has(k))
          problems.push({
            severity: 'warning',
            code: 'trail.unknown-criterion',
            file: file.path,
            location: rec.at(['criteria', k]),
            message: `"${k}" is not one of FoMER's ten criteria; ignored (here and after)`,
          });
        unknown.add(k);
      } else if (!(n >= 1 && n <= 10)) {
        problems.push({
          severity: 'error',
          code: 'trail.criterion-range',
          file: file.path,
          location: rec.at(['criteria', k]),
          message: `${k} is ${n}, not 1–10: the item is left out of RA`,
        });
      }
    }
    const missing = FOMER_CRITERIA.filter((c) => !(c.name in v.criteria)).map((c) => c.name);
    if (missing.length)
      problems.push({
        severity: 'error',
        code: 'trail.criterion-missing',
        file: file.path,
        location: rec.at(['criteria']),
        message: `no score for ${missing.join(', ')}: the item is left out of RA`,
      });
    const k = JSON.stringify([v.id, v.model ?? '']);
    const first = seen.get(k);
    if (first !== undefined)
      problems.push({
        severity: 'warning',
        code: 'trail.duplicate',
        file: file.path,
        location: rec.at(),
        message: `${v.id}${v.model ? ` (model ${v.model})` : ''} was scored already at ${first}; this entry replaces it`,
      });
    seen.set(k, rec.at());
    const entry: ImportedTrailScores = { id: v.id, criteria: Object.fromEntries(Object.entries(v.criteria).filter(([c]) => NAMES.has(c))) };
    if (v.model !== undefined) entry.model = v.model;
    if (v.final !== undefined && v.final !== null) entry.final = v.final;
    if (v.explanation !== undefined) entry.explanation = v.explanation;
    entries.push(entry);
  }
  if (entries.length === 0 && problems.length === 0)
    problems.push({ severity: 'warning', code: 'trail.empty', file: file.path, location: '', message: 'the file holds no verdicts' });
  return { name, entries, problems };
}
