import { asText, placeOf, problem, promptName, type PredictionRead } from './common.ts';
import { parseFreeText } from './freeText.ts';

/**
 * A .txt file of older free-text outputs. Every line containing `Answer:` is one record in the
 * one-line form (freeText.ts); other lines are ignored. A line identifies its record with
 * `Scene:`, `Agent:`, `Question:` (and `Model:`) fields; missing ones come from where the file
 * is: its name as the runner names prompt files (`<SCENE>_q<NN>_<AGENT>.txt`, NN counted from 1)
 * and its folders (`<model_setting>/<SCENE>/`). A line that still lacks a scene, an agent or a
 * question is reported and skipped; a file without any `Answer:` line is reported.
 */
export function readPredictionText(file: { path: string; text: string }, defaultModel: string): PredictionRead {
  const out: PredictionRead = { predictions: [], problems: [] };
  const place = placeOf(file.path);
  const named = promptName(place.stem);
  let any = false;
  file.text.split(/\r?\n/).forEach((line, i) => {
    const ft = /answer\s*:/i.test(line) ? parseFreeText(line) : null;
    if (!ft) return;
    any = true;
    const location = `line ${i + 1}`;
    const scene = ft.scene ?? named?.scene ?? place.scene ?? '';
    const agent = ft.agent ?? named?.agent ?? '';
    const question = asText(ft.question);
    const questionIndex = question ? null : (named?.questionIndex ?? null);
    const missing = [!scene && 'scene', !agent && 'agent', !question && questionIndex === null && 'question'].filter(Boolean);
    if (missing.length) {
      out.problems.push(
        problem(
          'error',
          'predictions.item',
          file.path,
          location,
          `cannot tell which record this is: no ${missing.join(', ')} (give "Scene: … | Agent: … | Question: …" on the line, or name the file <SCENE>_q<NN>_<AGENT>.txt)`,
        ),
      );
      return;
    }
    out.predictions.push({
      id: `${file.path}#${location}`,
      file: file.path,
      location,
      model: ft.model ?? place.model ?? defaultModel,
      scene,
      question,
      questionIndex,
      agent,
      answer: ft.answer,
      path: ft.path,
      reason: ft.reason,
    });
  });
  if (!any) out.problems.push(problem('error', 'predictions.malformed', file.path, '', 'no line of the form "Answer: … | Path: … | Reason: …"'));
  return out;
}
