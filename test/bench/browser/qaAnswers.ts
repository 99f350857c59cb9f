// Runs inside headless Chromium for `npm run bench`: 10,000 QA items' answers read and scored on
// the page's main thread, as the Score view's "QA answers" section does.
import { scoreQaAnswers, type QaTruth } from '../../../src/core/scoring/vqa/qaAnswers.ts';
import { readQaAnswers } from '../../../src/formats/qa/answers.ts';
import { best } from '../best.ts';

(window as unknown as { runQaAnswersBench: (base: string) => Promise<unknown> }).runQaAnswersBench = async (base: string) => {
  const items = (await (await fetch(`${base}items.json`)).json()) as QaTruth[];
  const text = await (await fetch(`${base}answers.jsonl`)).text();
  const file = { path: 'bench.jsonl', text };
  const coldRead = best(1, () => readQaAnswers([file]));
  const cold = best(1, () => scoreQaAnswers(items, coldRead.value.predictions));
  const read = best(5, () => readQaAnswers([file]));
  const scored = best(5, () => scoreQaAnswers(items, read.value.predictions));
  const headline = JSON.stringify(scored.value.models.map((m) => [m.model, m.embodied4c, m.mcq, m.yesno, m.numeric, m.freetext, m.missing.length]));
  return { coldReadMs: coldRead.ms, coldMs: cold.ms, readMs: read.ms, scoreMs: scored.ms, headline };
};
(window as unknown as { benchReady: boolean }).benchReady = true;
