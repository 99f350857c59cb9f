import { pointer } from '../../core/problems.ts';
import type { Prediction } from '../../core/scoring/paper/types.ts';
import { parseJson, type SourceFile } from '../json.ts';
import { asText, placeOf, problem, promptName, type PredictionRead } from './common.ts';
import { parseFreeText, splitPath } from './freeText.ts';

/**
 * One file of the CapNav runner's output, `results/<model_setting>/<SCENE>/<name>.json`:
 *
 *     { "scene": "HM3D00025", "prompt_file": "HM3D00025_q01_HUMANOID.txt", "time_sec": 12.3,
 *       "result": [ { "question": "Can [Agent] move from …", "agent": "HUMANOID",
 *                     "result": { "answer": "no", "path": ["node_126", "node_120"], "reason": "…" } } ] }
 *
 * The model is the `<model_setting>` folder (or `defaultModel` when the file is not that deep).
 * Also accepted: a bare list of result items (the scene is then the folder name); an item's
 * `result` as an older one-line string (`Answer: (A) True | Path: a -> b | Reason: …`, see
 * freeText.ts); `path` as a string (`a -> b -> c`); answers as booleans. A missing `agent` or
 * `question` falls back to the prompt-file name (`<SCENE>_q<NN>_<AGENT>`, NN from 1).
 * Each bad item is reported by its JSON pointer and skipped; a malformed file is reported once.
 */
export function readRunnerFile(file: SourceFile, defaultModel: string): PredictionRead {
  const out: PredictionRead = { predictions: [], problems: [] };
  const parsed = parseJson(file);
  if (!parsed.ok) {
    out.problems.push({ ...parsed.problem, severity: 'error', code: 'predictions.malformed' });
    return out;
  }
  const place = placeOf(file.path);
  const model = place.model ?? defaultModel;
  const top = parsed.value;
  let items: unknown[];
  let scene: string | undefined;
  let prompt: ReturnType<typeof promptName> = null;
  let base: (string | number)[] = [];
  if (Array.isArray(top)) {
    items = top;
    scene = place.scene;
  } else if (typeof top === 'object' && top !== null && Array.isArray((top as { result?: unknown }).result)) {
    const obj = top as { scene?: unknown; prompt_file?: unknown; result: unknown[] };
    items = obj.result;
    base = ['result'];
    prompt = typeof obj.prompt_file === 'string' ? promptName(obj.prompt_file) : null;
    scene = typeof obj.scene === 'string' && obj.scene.trim() ? obj.scene.trim() : (prompt?.scene ?? place.scene);
    if (typeof obj.scene !== 'string')
      out.problems.push(
        problem(
          'warning',
          'predictions.no-scene',
          file.path,
          '/scene',
          `no "scene": taken as ${scene ?? '(unknown)'} from the ${prompt ? 'prompt file name' : 'folder name'}`,
        ),
      );
  } else {
    out.problems.push(
      problem('error', 'predictions.shape', file.path, '', 'expected an object with a "result" list (CapNav runner output) or a list of result items'),
    );
    return out;
  }
  if (!scene) {
    out.problems.push(problem('error', 'predictions.no-scene', file.path, '', 'the file names no scene, and its folder does not either'));
    return out;
  }
  items.forEach((item, i) => {
    const location = pointer([...base, i]);
    const p = readItem(item, file.path, location, model, scene!, prompt, out.problems);
    if (p) out.predictions.push(p);
  });
  return out;
}

function readItem(
  item: unknown,
  file: string,
  location: string,
  model: string,
  scene: string,
  prompt: ReturnType<typeof promptName>,
  problems: PredictionRead['problems'],
): Prediction | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    problems.push(problem('error', 'predictions.item', file, location, 'a result item must be an object with "question", "agent" and "result"'));
    return null;
  }
  const it = item as Record<string, unknown>;
  const agent = asText(it.agent).trim() || prompt?.agent || '';
  if (!agent) {
    problems.push(problem('error', 'predictions.no-agent', file, location, 'the item names no agent'));
    return null;
  }
  const question = asText(it.question);
  const questionIndex = question.trim() ? null : (prompt?.questionIndex ?? null);
  if (!question.trim() && questionIndex === null) {
    problems.push(problem('error', 'predictions.no-question', file, location, 'the item has no question text'));
    return null;
  }
  const res = it.result;
  let answer = '',
    path: string[] = [],
    reason = '';
  if (typeof res === 'string') {
    const ft = parseFreeText(res);
    if (ft) ({ answer, path, reason } = ft);
    else {
      // Not the one-line form: the whole text is read as the answer (a bare "yes" still counts).
      answer = res;
      problems.push(
        problem('warning', 'predictions.free-text', file, `${location}/result`, 'free-text result without "Answer:"; the whole text is read as the answer'),
      );
    }
  } else if (typeof res === 'object' && res !== null && !Array.isArray(res)) {
    const r = res as Record<string, unknown>;
    answer = asText(r.answer);
    path = readPath(r.path);
    reason = asText(r.reason);
  } else {
    problems.push(problem('warning', 'predictions.no-result', file, `${location}/result`, 'the item has no result object; scored as unparseable'));
  }
  return { id: `${file}#${location}`, file, location, model, scene, question, questionIndex, agent, answer, path, reason };
}

/** A path as a list of tokens: a list (items as text) or an arrow-separated string. */
export function readPath(v: unknown): string[] {
  if (Array.isArray(v)) {
    // One array per record, no intermediate one: a results file can hold 100,000 paths.
    const out: string[] = [];
    for (const t of v) {
      const s = asText(t).trim();
      if (s !== '') out.push(s);
    }
    return out;
  }
  if (typeof v === 'string') return splitPath(v);
  return [];
}
