// Bench section: scoring a model's answers to 10,000 QA items, the size the Score view's "QA
// answers" section scores on the page's main thread (target: under ~100 ms, read included).
// Measured in Node and in headless Chromium on the built page; the section throws if the two
// reports disagree.
import { seededRandom } from '../../src/core/scoring/bootstrap.ts';
import { scoreQaAnswers, type QaTruth } from '../../src/core/scoring/vqa/qaAnswers.ts';
import { readQaAnswers } from '../../src/formats/qa/answers.ts';
import type { BenchSection } from './run.ts';
import { runBenchPage } from './browserPage.ts';
import { best } from './best.ts';

const N = 10_000;
const TARGET_MS = 100;
const CAPS = ['semantic', 'spatial', 'temporal', 'physical', 'general', 'navigation'];

/** 10,000 items of every answer kind and capability (one a custom one), and a model's replies to them in the ways models write. */
export function qaBenchData(): { items: QaTruth[]; jsonl: string } {
  const rng = seededRandom(7);
  const items: QaTruth[] = [];
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    const id = `qa_${i + 1}`,
      roll = rng(),
      capability = CAPS[i % CAPS.length]!;
    const base = { id, sceneId: `scene_${i % 30}`, question: `Question ${i} about the room by the stairs?`, category: { capability } };
    let reply: string, judgeScore: number | undefined;
    if (roll < 0.4) {
      items.push({
        ...base,
        answer: {
          kind: 'mcq',
          options: [
            { key: 'A', text: 'The kitchen' },
            { key: 'B', text: 'The hall' },
            { key: 'C', text: 'Bedroom 1' },
            { key: 'D', text: 'The study' },
          ],
          correct: 'ABCD'[i % 4]!,
        },
      });
      reply = ['B', '(c)', 'I think the answer is (A).', 'It is the hall, next to the stairs.', 'Not sure.'][i % 5]!;
    } else if (roll < 0.7) {
      items.push({ ...base, answer: { kind: 'yesno', correct: i % 2 === 0 } });
      reply = ['Yes.', 'No, it is not possible', 'I think yes... but no', 'Hard to say.'][i % 4]!;
    } else if (roll < 0.9) {
      items.push({ ...base, answer: { kind: 'numeric', value: 1 + (i % 50) / 10, unit: 'm', tolerance: 0.1 } });
      reply = `Answer: about ${(1 + (i % 50) / 10 + (rng() - 0.5) / 5).toFixed(2)} m`;
    } else {
      items.push({ ...base, answer: { kind: 'freetext', reference: 'Against the north wall, under the window.' } });
      reply = 'By the window on the north wall.';
      judgeScore = rng() < 0.8 ? Math.round(rng() * 100) : undefined;
    }
    if (rng() < 0.98) lines.push(JSON.stringify({ id, answer: reply, model: 'bench-vlm', ...(judgeScore !== undefined ? { judgeScore } : {}) }));
  }
  return { items, jsonl: lines.join('\n') + '\n' };
}

const verdict = (ms: number) => (ms < TARGET_MS ? `under the ${TARGET_MS} ms target` : `OVER the ${TARGET_MS} ms target`);
const headline = (r: ReturnType<typeof scoreQaAnswers>) =>
  JSON.stringify(r.models.map((m) => [m.model, m.embodied4c, m.mcq, m.yesno, m.numeric, m.freetext, m.missing.length]));

export const qaAnswersBench: BenchSection = {
  name: 'qa-answers',
  title: "scoring a model's answers to 10,000 QA items on the main thread (target < 100 ms)",
  async run() {
    const { items, jsonl } = qaBenchData();
    const coldRead = best(1, () => readQaAnswers([{ path: 'bench.jsonl', text: jsonl }]));
    const cold = best(1, () => scoreQaAnswers(items, coldRead.value.predictions));
    const read = best(5, () => readQaAnswers([{ path: 'bench.jsonl', text: jsonl }]));
    const predictions = read.value.predictions;
    const warm = best(5, () => scoreQaAnswers(items, predictions));
    const boot = best(1, () => scoreQaAnswers(items, predictions, { bootstrap: { resamples: 1000, seed: 1 } }));
    const m = warm.value.models[0]!;
    console.log(
      `items: ${N.toLocaleString('en-US')}, answers: ${predictions.length.toLocaleString('en-US')} (VQA ${m.embodied4c.benchmarks.qa!.vqa.mean!.toFixed(2)}, ${m.missing.length} missing)`,
    );
    console.log(`node: read, first run (cold JIT)          ${coldRead.ms.toFixed(1).padStart(7)} ms`);
    console.log(`node: score, first run (cold JIT)         ${cold.ms.toFixed(1).padStart(7)} ms  ${verdict(coldRead.ms + cold.ms)} (read + score)`);
    console.log(`node: read answers JSONL (best of 5)      ${read.ms.toFixed(1).padStart(7)} ms`);
    console.log(`node: score (best of 5)                   ${warm.ms.toFixed(1).padStart(7)} ms  ${verdict(read.ms + warm.ms)} (read + score)`);
    console.log(`node: score + 1,000 bootstrap resamples   ${boot.ms.toFixed(1).padStart(7)} ms`);

    const browser = await runBenchPage<{ coldReadMs: number; coldMs: number; readMs: number; scoreMs: number; headline: string }>(
      'qaAnswers',
      'runQaAnswersBench',
      [
        { name: 'items.json', data: JSON.stringify(items) },
        { name: 'answers.jsonl', data: jsonl },
      ],
    );
    if (browser.headline !== headline(warm.value)) throw new Error('the page and Node score the answers differently');
    console.log(`page main thread: read, first run         ${browser.coldReadMs.toFixed(1).padStart(7)} ms`);
    console.log(
      `page main thread: score, first run        ${browser.coldMs.toFixed(1).padStart(7)} ms  ${verdict(browser.coldReadMs + browser.coldMs)} (read + score)`,
    );
    console.log(`page main thread: read (best of 5)        ${browser.readMs.toFixed(1).padStart(7)} ms`);
    console.log(
      `page main thread: score (best of 5)       ${browser.scoreMs.toFixed(1).padStart(7)} ms  ${verdict(browser.readMs + browser.scoreMs)} (read + score)`,
    );
  },
};
