// Bench section: first the whole process on the released layout at full size (scoreProcess.ts:
// `node <bundle> score --compat reference` against its 0.7 s target, paper mode beside it), then
// scoring throughput on 100,000 generated predictions over the CapNav release
// (the shared 30 scenes, or the scoring test house when the shared data is absent). The released
// Python scorer manages ~3,000 records/s; the target for paper mode is ≥ 60,000 records/s.
// Measured: reading Traversa JSONL, paper-mode scoring (rule judge), the bootstrap, and — when
// the reference-compatible scorer is in the tree — `--compat reference` on the same predictions
// written as runner files. The section throws if chunked and one-pass scoring disagree.
import { existsSync } from 'node:fs';
import { readJsonFiles } from '../../src/cli/files.ts';
import type { Project } from '../../src/core/project.ts';
import { oracleBaseline, randomWalkBaseline, type PredictionRow } from '../../src/core/scoring/baselines.ts';
import { seededRandom } from '../../src/core/scoring/bootstrap.ts';
import { groundTruthFromRelease, scoreReference } from '../../src/core/scoring/compat/index.ts';
import { ruleJudge } from '../../src/core/scoring/judges/rule.ts';
import { scorePaper, scorePaperChunked } from '../../src/core/scoring/paper/score.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { readPredictionJsonl, toPredictionJsonl } from '../../src/formats/predictions/jsonl.ts';
import { scoringHouse } from '../support/scoreSupport.ts';
import { CAPNAV_DIR } from '../support/shared.ts';
import type { BenchSection } from './run.ts';
import { runBenchPage } from './browserPage.ts';
import { wholeProcess } from './scoreProcess.ts';

const N = 100_000;
const PYTHON_RECORDS_PER_S = 3_000;
const TARGET = 60_000;
const REASONS = ['The agent cannot climb the stairs', 'The door is too narrow for it', 'There is a door sill it cannot cross', 'no idea', ''];
const ANSWERS = ['yes', 'no', '(A) True', '(B) False', 'True', 'maybe'];

/**
 * 100,000 predictions of every kind a model writes: baseline rows (oracle and random walk)
 * varied by answer spelling, names instead of ids, misspelt tokens and reasons.
 */
export function generate(project: Project): PredictionRow[] {
  const base = [...oracleBaseline(project), ...randomWalkBaseline(project, { seed: 3 })];
  const names = new Map(project.scenes.map((s) => [s.id, new Map(s.graph.nodes.map((n) => [n.id, n.name]))]));
  const rng = seededRandom(11);
  const out: PredictionRow[] = [];
  for (let i = 0; out.length < N; i++) {
    const row = base[i % base.length]!;
    const roll = rng();
    const path =
      roll < 0.2 ? row.path.map((id) => names.get(row.scene)!.get(id) ?? id) : roll < 0.25 ? row.path.map((id, k) => (k === 1 ? `${id}x` : id)) : row.path;
    out.push({
      ...row,
      model: `${row.model}-${Math.floor(i / base.length)}`,
      answer: (rng() < 0.7 ? row.answer : ANSWERS[Math.floor(rng() * ANSWERS.length)]!) as PredictionRow['answer'],
      path,
      reason: row.answer === 'no' && rng() < 0.5 ? REASONS[Math.floor(rng() * REASONS.length)]! : row.reason,
    });
  }
  return out;
}

const rate = (n: number, ms: number) =>
  `${Math.round(n / (ms / 1000))
    .toLocaleString('en-US')
    .padStart(9)} records/s`;

async function best<T>(runs: number, fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  let bestMs = Infinity,
    value: T | undefined;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = await fn();
    bestMs = Math.min(bestMs, performance.now() - t0);
  }
  return { ms: bestMs, value: value! };
}

export const scoreBench: BenchSection = {
  name: 'score',
  title: 'score --compat reference and paper mode as whole processes on 4,500 result files (target < 0.7 s), then scoring 100,000 predictions in process',
  async run() {
    const shared = existsSync(CAPNAV_DIR);
    const missed = shared ? await wholeProcess(CAPNAV_DIR) : ['the whole-process part needs the shared release (absent)'];
    console.log('');
    const project = shared ? readRelease(readJsonFiles(CAPNAV_DIR)).project! : scoringHouse();
    console.log(`ground truth: ${shared ? `the shared release (${project.scenes.length} scenes)` : 'the scoring test house (shared release absent)'}`);
    const rows = generate(project);
    const jsonl = toPredictionJsonl(rows);

    const read = await best(3, () => readPredictionJsonl({ path: 'bench.jsonl', text: jsonl }));
    const predictions = read.value.predictions;
    const opts = { judge: ruleJudge() };
    const cold = await best(1, () => scorePaper(project, predictions, opts));
    const warm = await best(3, () => scorePaper(project, predictions, opts));
    const chunked = await scorePaperChunked(project, predictions, opts, { chunkSize: 5000 });
    if (JSON.stringify(chunked.overall) !== JSON.stringify(warm.value.overall)) throw new Error('chunked and one-pass scoring disagree');
    const boot = await best(1, () => scorePaper(project, predictions, { ...opts, bootstrap: { resamples: 1000, seed: 1 } }));

    console.log(
      `predictions: ${predictions.length.toLocaleString('en-US')} (${warm.value.records.length.toLocaleString('en-US')} scored, CapNav ${warm.value.overall.capnav?.toFixed(2)})`,
    );
    console.log(`read Traversa JSONL                 ${read.ms.toFixed(0).padStart(6)} ms  ${rate(N, read.ms)}`);
    console.log(`paper mode, first run (cold JIT)   ${cold.ms.toFixed(0).padStart(6)} ms  ${rate(N, cold.ms)}`);
    console.log(
      `paper mode, warm (best of 3)        ${warm.ms.toFixed(0).padStart(6)} ms  ${rate(N, warm.ms)}   ${warm.ms > 0 && N / (warm.ms / 1000) >= TARGET ? 'target ≥ 60,000/s met' : 'BELOW the 60,000/s target'}; ${(N / (warm.ms / 1000) / PYTHON_RECORDS_PER_S).toFixed(0)}× the Python scorer`,
    );
    console.log(`paper mode + 1,000 bootstrap resamples ${boot.ms.toFixed(0).padStart(6)} ms`);

    // The same predictions as runner files of 50 items (the layout the released scorer reads).
    const files: { path: string; text: string }[] = [];
    for (let i = 0; i < rows.length; i += 50) {
      const batch = rows.slice(i, i + 50);
      files.push({
        path: `m/${batch[0]!.scene}/batch${String(i / 50).padStart(5, '0')}.json`,
        text: JSON.stringify({
          scene: batch[0]!.scene,
          result: batch
            .filter((r) => r.scene === batch[0]!.scene)
            .map((r) => ({ question: r.question, agent: r.agent, result: { answer: r.answer, path: r.path, reason: r.reason } })),
        }),
      });
    }
    const items = files.reduce((a, f) => a + (JSON.parse(f.text) as { result: unknown[] }).result.length, 0);
    const gt = groundTruthFromRelease(writeRelease(project));
    const compat = await best(2, () => scoreReference(files, gt.groundTruth));
    console.log(
      `--compat reference (${files.length} runner files) ${compat.ms.toFixed(0).padStart(6)} ms  ${rate(items, compat.ms)}   ${(items / (compat.ms / 1000) / PYTHON_RECORDS_PER_S).toFixed(0)}× the Python scorer`,
    );

    // The browser: the same 100,000 predictions through the app's scoring worker (headless Chromium).
    const browser = await runBenchPage<{ records: number; workerMs: number; warmMs: number; mainMs: number; agree: boolean }>('score', 'runScoreBench', [
      { name: 'project.json', data: JSON.stringify(project) },
      { name: 'predictions.jsonl', data: jsonl },
    ]);
    if (!browser.agree) throw new Error('the scoring worker and the page’s main thread disagree');
    const warmRate = browser.records / (browser.warmMs / 1000);
    console.log(`browser worker, first run (starts it)   ${browser.workerMs.toFixed(0).padStart(6)} ms  ${rate(browser.records, browser.workerMs)}`);
    console.log(
      `browser worker, warm (best of 3; read + score + transfer) ${browser.warmMs.toFixed(0).padStart(6)} ms  ${rate(browser.records, browser.warmMs)}   ${warmRate >= TARGET ? 'target ≥ 60,000/s met' : 'BELOW the 60,000/s target'}; ${(warmRate / PYTHON_RECORDS_PER_S).toFixed(0)}× the Python scorer`,
    );
    console.log(
      `page main thread, first run (fallback)  ${browser.mainMs.toFixed(0).padStart(6)} ms  ${rate(browser.records, browser.mainMs)}   (same report as the worker)`,
    );
    console.log(`released Python scorer (reported)                   ${rate(PYTHON_RECORDS_PER_S, 1000)}`);
    if (missed.length) throw new Error(missed.join('; '));
  },
};
