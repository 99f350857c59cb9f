import type { PredictionRow } from '../../core/scoring/baselines.ts';
import { parseJson } from '../json.ts';
import { withoutBom } from '../text.ts';
import { asText, placeOf, problem, type PredictionRead } from './common.ts';
import { readPath } from './runner.ts';

/**
 * Traversa's prediction JSONL: one JSON object per line,
 *
 *     {"model": "gemini-2.5-pro", "scene": "HM3D00025", "question": "Can [Agent] move from …",
 *      "agent": "HUMANOID", "answer": "no", "path": ["node_126", "node_120"], "reason": "stairs"}
 *
 * `questionIndex` (position in the scene's QA file, from 0) may stand in for `question`.
 * `model` defaults to the file's name without extension; `path` may be a list or an arrow
 * string; `reason` may be missing. Blank lines are skipped; a bad line is reported by its
 * number and skipped. The baselines write this form.
 */
const NON_BLANK = /\S/;

export function readPredictionJsonl(file: { path: string; text: string }, defaultModel?: string): PredictionRead {
  const out: PredictionRead = { predictions: [], problems: [] };
  const fallbackModel = defaultModel ?? placeOf(file.path).stem;
  // A results file can hold 100,000 lines: walk it by index and parse each line directly (a
  // regex split and a wrapper object per line cost a third of the scoring time).
  const text = withoutBom(file.text);
  let lineNo = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    let line = text.slice(start, end);
    start = end + 1;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (!NON_BLANK.test(line)) continue;
    const location = `line ${lineNo}`;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      const parsed = parseJson({ path: file.path, text: line });
      out.problems.push(problem('error', 'predictions.malformed', file.path, location, parsed.ok ? 'not valid JSON' : parsed.problem.message));
      continue;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      out.problems.push(problem('error', 'predictions.item', file.path, location, 'each line must be a JSON object'));
      continue;
    }
    const o = v as Record<string, unknown>;
    const scene = asText(o.scene).trim();
    const agent = asText(o.agent).trim();
    const question = asText(o.question);
    const questionIndex = typeof o.questionIndex === 'number' && Number.isInteger(o.questionIndex) && o.questionIndex >= 0 ? o.questionIndex : null;
    if (!scene || !agent || (!question.trim() && questionIndex === null)) {
      const missing = [!scene && 'scene', !agent && 'agent', !question.trim() && questionIndex === null && 'question'].filter(Boolean);
      out.problems.push(problem('error', 'predictions.item', file.path, location, `missing ${missing.join(', ')}`));
      continue;
    }
    out.predictions.push({
      id: `${file.path}#${location}`,
      file: file.path,
      location,
      model: asText(o.model).trim() || fallbackModel,
      scene,
      question,
      questionIndex,
      agent,
      answer: asText(o.answer),
      path: readPath(o.path),
      reason: asText(o.reason),
    });
  }
  return out;
}

/** Write prediction rows as JSONL (keys in the documented order). */
export function toPredictionJsonl(rows: readonly PredictionRow[]): string {
  return (
    rows
      .map((r) =>
        JSON.stringify({
          model: r.model,
          scene: r.scene,
          question: r.question,
          questionIndex: r.questionIndex,
          agent: r.agent,
          answer: r.answer,
          path: r.path,
          reason: r.reason,
        }),
      )
      .join('\n') + (rows.length ? '\n' : '')
  );
}
