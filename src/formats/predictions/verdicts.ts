import type { Problem } from '../../core/problems.ts';
import type { ImportedVerdict } from '../../core/scoring/judges/imported.ts';
import { parseJson, type SourceFile } from '../json.ts';
import { problem } from './common.ts';

/**
 * Imported RV verdict files (`score --verdicts <file>`). JSON or JSONL:
 *
 *     { "judge": "gpt-4o, authors' run",            // optional: named in the report
 *       "verdicts": [
 *         { "scene": "HM3D00025", "question": "Can [Agent] move from …", "agent": "HUMANOID",
 *           "model": "gemini-2.5-pro_64f",            // optional: else the verdict holds for every model
 *           "correct": true, "explanation": "…" },
 *         { "reason": "The agent cannot climb stairs", "notes": ["Stairs"], "correct": true } ] }
 *
 * A bare list of verdicts, or one verdict object per line (.jsonl), is also read. Each verdict
 * needs a boolean `correct` and either `scene` + `question` + `agent` (keyed by prediction) or
 * `reason` (+ `notes`, keyed by what was judged). Bad entries are reported by location and skipped.
 */
export function readVerdictFile(file: SourceFile): { name: string; verdicts: ImportedVerdict[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const stem = file.path
    .split('/')
    .pop()!
    .replace(/\.[^.]+$/, '');
  const entries: { value: unknown; location: string }[] = [];
  let name = stem;
  if (file.path.toLowerCase().endsWith('.jsonl')) {
    file.text.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      const p = parseJson({ path: file.path, text: line });
      if (p.ok) entries.push({ value: p.value, location: `line ${i + 1}` });
      else problems.push(problem('error', 'verdicts.malformed', file.path, `line ${i + 1}`, p.problem.message));
    });
  } else {
    const p = parseJson(file);
    if (!p.ok) return { name, verdicts: [], problems: [{ ...p.problem, severity: 'error', code: 'verdicts.malformed' }] };
    const v = p.value as { judge?: unknown; verdicts?: unknown };
    const list = Array.isArray(v) ? v : v && typeof v === 'object' && Array.isArray(v.verdicts) ? v.verdicts : null;
    if (!list)
      return { name, verdicts: [], problems: [problem('error', 'verdicts.shape', file.path, '', 'expected {"verdicts": [...]} or a list of verdicts')] };
    if (!Array.isArray(v) && typeof v.judge === 'string' && v.judge.trim()) name = v.judge.trim();
    list.forEach((value, i) => entries.push({ value, location: Array.isArray(v) ? `/${i}` : `/verdicts/${i}` }));
  }
  const verdicts: ImportedVerdict[] = [];
  for (const { value, location } of entries) {
    const o = (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
    const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
    const byRecord = str('scene') !== undefined && str('question') !== undefined && str('agent') !== undefined;
    const byContent = str('reason') !== undefined;
    if (typeof o.correct !== 'boolean' || (!byRecord && !byContent)) {
      problems.push(
        problem('error', 'verdicts.entry', file.path, location, 'a verdict needs a boolean "correct" and either "scene", "question" and "agent", or "reason"'),
      );
      continue;
    }
    const verdict: ImportedVerdict = { correct: o.correct };
    for (const k of ['explanation', 'scene', 'question', 'agent', 'model', 'reason'] as const) {
      const s = str(k);
      if (s !== undefined) verdict[k] = s;
    }
    if (Array.isArray(o.notes)) verdict.notes = o.notes.filter((n): n is string => typeof n === 'string');
    verdicts.push(verdict);
  }
  return { name, verdicts, problems };
}
