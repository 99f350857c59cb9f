import { strToU8 } from 'fflate';
import type { QaItem } from '../core/vqa/item.ts';
import { scoreQaAnswers } from '../core/scoring/vqa/qaAnswers.ts';
import { readQaAnswers } from '../formats/qa/answers.ts';
import type { QaAnswersState } from '../state/qaAnswersState.ts';
import type { StudioState, StudioStore } from '../state/store.ts';
import { readPickedText, type PickedFile } from '../ui/pickedFiles.ts';
import { download, safeName } from './exportRelease.ts';

const ANSWER_FILE = /\.(jsonl|ndjson|json)$/i;

/**
 * Scores loaded answers against the project's ACCEPTED QA items on the main thread, again
 * whenever the answers, the settings or the items change while the Score view is open. For
 * 10,000 items `npm run bench -- qa-answers` measures ~40 ms to score (plus ~30 ms to read the
 * file) once warm, and ~130 ms (plus ~80 ms) for the very first run on a slow 2-vCPU machine;
 * that first run is over a 100 ms frame budget there. The scoring is pure and its report
 * structured-cloneable, so moving it into a worker is a small step if larger sets need it.
 */
export class QaAnswersRunner {
  private scored: { items: readonly QaItem[] | null; predictions: unknown; settings: unknown } | null = null;

  constructor(private store: StudioStore) {
    store.subscribe((s) => this.maybeScore(s));
  }

  private set(patch: Partial<QaAnswersState>) {
    this.store.setState((s) => ({ qaAnswers: { ...s.qaAnswers, ...patch } }));
  }

  async load(picked: PickedFile[]): Promise<void> {
    const wanted = picked.filter((p) => ANSWER_FILE.test(p.path));
    const { files, problems: undecodable } = await readPickedText(wanted);
    const read = readQaAnswers(files);
    this.scored = null;
    this.set({ files: files.map((f) => f.path), predictions: read.predictions, readProblems: [...undecodable, ...read.problems], report: null, elapsedMs: null, selectedModel: null });
    this.maybeScore(this.store.getState(), true);
  }

  clear(): void {
    this.scored = null;
    this.set({ files: [], predictions: [], readProblems: [], report: null, elapsedMs: null, selectedModel: null });
  }

  exportJson(): void {
    const { qaAnswers: q, document: d } = this.store.getState();
    if (!q.report) return;
    const text = JSON.stringify({ ...q.report, project: d.project?.name ?? null, predictions: q.files, problems: q.readProblems }, null, 2) + '\n';
    download(`${safeName(d.project?.name ?? 'project')}-qa-scores.json`, strToU8(text), 'application/json');
  }

  private maybeScore(s: StudioState, force = false): void {
    const q = s.qaAnswers;
    if (!q.predictions.length || (!force && s.session.view !== 'score')) return;
    const items = s.document.project?.qa.items ?? null;
    const last = this.scored;
    if (last && last.items === items && last.predictions === q.predictions && last.settings === q.settings) return;
    this.scored = { items, predictions: q.predictions, settings: q.settings };
    const accepted = (items ?? []).filter((i) => i.status === 'accepted');
    const t0 = performance.now();
    const report = scoreQaAnswers(accepted, q.predictions, {
      tau: q.settings.tau, averaging: q.settings.averaging, bootstrap: { resamples: q.settings.bootstrap, seed: 1, level: 0.95 },
    });
    const elapsedMs = performance.now() - t0;
    const selected = report.models.some((m) => m.model === q.selectedModel) ? q.selectedModel : report.models[0]?.model ?? null;
    this.set({ report, elapsedMs, selectedModel: selected });
  }
}
