import { strToU8 } from 'fflate';
import type { QaItem } from '../../../core/vqa/item.ts';
import { benchmarkItems } from '../../../core/vqa/navigationAnswers.ts';
import { cachedTrailJudge, httpTrailJudge, importedTrailJudge, type TrailScores } from '../../../core/scoring/judges/trail.ts';
import { scoreQaAnswers, type QaAnswersReport, type QaPrediction } from '../../../core/scoring/vqa/qaAnswers.ts';
import { judgeTrails, judgeTrailsNow, scoreTrails, trailRequests, type TrailSettings } from '../../../core/scoring/vqa/trails.ts';
import type { SourceFile } from '../../../formats/json.ts';
import { readQaAnswers } from '../../../formats/qa/answers.ts';
import { readTrailScores } from '../../../formats/qa/trailScores.ts';
import type { QaAnswersState } from '../state/qaAnswersState.ts';
import type { StudioState, StudioStore } from '../../../state/store.ts';
import { JUDGE_KEY_STORAGE } from '../ui/judgeKey.ts';
import { readPickedText, type PickedFile } from '../../../ui/pickedFiles.ts';
import { download, safeName } from '../../../services/exportRelease.ts';
import { patchState } from '../../../state/patch.ts';

const ANSWER_FILE = /\.(jsonl|ndjson|json)$/i;

/**
 * Scores loaded answers against the project's ACCEPTED QA items on the main thread, again
 * whenever the answers, the settings or the items change while the Score view is open. For
 * 10,000 items `npm run bench -- qa-answers` measures ~40 ms to score (plus ~30 ms to read the
 * file) once warm, and ~130 ms (plus ~80 ms) for the very first run on a slow 2-vCPU machine;
 * that first run is over a 100 ms frame budget there. The scoring is pure and its report
 * structured-cloneable, so moving it into a worker is a small step if larger sets need it.
 *
 * Answer files add up: each load adds its files (a file of the same name replaces the one loaded
 * before), and every file is its own run (`readQaAnswers` scores a model named in two files
 * twice, apart). With a reasoning judge the answers' steps get FoMER's RA/FA, the same figures
 * `score-qa` prints: imported scores at once, the HTTP judge in the background (its verdicts kept
 * for the session, so a change of settings does not ask again).
 */
export class QaAnswersRunner {
  private scored: { items: readonly QaItem[] | null; scenes: unknown; predictions: unknown; settings: unknown; judge: unknown; scores: unknown } | null = null;
  private sources: SourceFile[] = [];
  private readonly trailCache = new Map<string, TrailScores>();
  private judging: AbortController | null = null;
  private generation = 0;

  constructor(private store: StudioStore) {
    store.subscribe((s) => this.maybeScore(s));
  }

  private set(patch: Partial<QaAnswersState>) {
    patchState(this.store, 'qaAnswers', patch);
  }

  private setReasoning(patch: Partial<QaAnswersState['reasoning']>) {
    this.store.setState((s) => ({ qaAnswers: { ...s.qaAnswers, reasoning: { ...s.qaAnswers.reasoning, ...patch } } }));
  }

  async load(picked: PickedFile[]): Promise<void> {
    const wanted = picked.filter((p) => ANSWER_FILE.test(p.path));
    const { files, problems: undecodable } = await readPickedText(wanted);
    const fresh = new Set(files.map((f) => f.path));
    this.sources = [...this.sources.filter((f) => !fresh.has(f.path)), ...files];
    const read = readQaAnswers(this.sources);
    this.scored = null;
    this.set({
      files: this.sources.map((f) => f.path),
      predictions: read.predictions,
      readProblems: [...undecodable, ...read.problems],
      sameModel: read.sameModel,
      report: null,
      fomer: null,
      elapsedMs: null,
      selectedModel: null,
    });
    this.maybeScore(this.store.getState(), true);
  }

  clear(): void {
    this.scored = null;
    this.sources = [];
    this.judging?.abort();
    this.set({ files: [], predictions: [], readProblems: [], sameModel: [], report: null, fomer: null, elapsedMs: null, selectedModel: null });
  }

  /** Imported reasoning scores (src/formats/qa/trailScores.ts): they become the reasoning judge. */
  async loadReasoningScores(picked: PickedFile[]): Promise<void> {
    const { files, problems } = await readPickedText(picked.slice(0, 1));
    const file = files[0];
    if (!file) {
      this.setReasoning({ problems });
      return;
    }
    const read = readTrailScores(file);
    this.setReasoning({
      judge: 'imported',
      scores: { file: file.path, name: read.name, entries: read.entries },
      problems: [...problems, ...read.problems],
      error: null,
    });
  }

  /** Choose the reasoning judge; choosing the HTTP judge again asks it again (answers it judged are cached for the session). */
  setReasoningJudge(judge: QaAnswersState['reasoning']['judge']): void {
    if (judge !== 'http') this.judging?.abort();
    this.scored = null;
    this.setReasoning({ judge, error: null, ...(judge === 'imported' ? {} : { problems: [] }) });
  }

  /** Stop asking the HTTP judge: the answers judged so far are scored, the rest are listed as not judged. */
  cancelReasoning(): void {
    this.judging?.abort();
  }

  exportJson(): void {
    const { qaAnswers: q, document: d } = this.store.getState();
    if (!q.report) return;
    const text =
      JSON.stringify(
        {
          ...q.report,
          project: d.project?.name ?? null,
          predictions: q.files,
          sameModel: q.sameModel,
          fomer: q.fomer,
          problems: [...q.readProblems, ...q.reasoning.problems],
        },
        null,
        2,
      ) + '\n';
    download(`${safeName(d.project?.name ?? 'project')}-qa-scores.json`, strToU8(text), 'application/json');
  }

  private maybeScore(s: StudioState, force = false): void {
    const q = s.qaAnswers;
    if (!q.predictions.length || (!force && s.session.view !== 'score')) return;
    const items = s.document.project?.qa.items ?? null;
    const project = s.document.project;
    const last = this.scored;
    const { judge, scores } = q.reasoning;
    if (
      last &&
      last.items === items &&
      last.scenes === project?.scenes &&
      last.predictions === q.predictions &&
      last.settings === q.settings &&
      last.judge === judge &&
      last.scores === scores
    )
      return;
    this.scored = { items, scenes: project?.scenes, predictions: q.predictions, settings: q.settings, judge, scores };
    // Navigation questions count once per agent, answered by the labels (core/vqa/navigationAnswers.ts).
    const accepted = project ? benchmarkItems(project).items : [];
    const t0 = performance.now();
    const bootstrap = { resamples: q.settings.bootstrap, seed: 1, level: 0.95 };
    const report = scoreQaAnswers(accepted, q.predictions, { tau: q.settings.tau, averaging: q.settings.averaging, bootstrap });
    const trailSettings: TrailSettings = { subsets: q.settings.subsets, averaging: q.settings.averaging, bootstrap };
    let fomer = null;
    if (judge === 'imported' && scores) {
      const j = importedTrailJudge(scores.entries, scores.name);
      fomer = scoreTrails(accepted, q.predictions, report, judgeTrailsNow(trailRequests(accepted, q.predictions), j), j.info, trailSettings);
    }
    const elapsedMs = performance.now() - t0;
    const selected = report.models.some((m) => m.model === q.selectedModel) ? q.selectedModel : (report.models[0]?.model ?? null);
    const gen = ++this.generation;
    this.judging?.abort();
    this.set({ report, fomer, elapsedMs, selectedModel: selected });
    if (judge === 'http') void this.judgeHttp(accepted, q.predictions, report, trailSettings, gen);
  }

  /** The HTTP judge on the page: the Score view's endpoint, model and time limit, the key from localStorage, verdicts kept for the session. */
  private async judgeHttp(
    items: readonly QaItem[],
    predictions: readonly QaPrediction[],
    report: QaAnswersReport,
    settings: TrailSettings,
    gen: number,
  ): Promise<void> {
    const { http } = this.store.getState().scoring.settings;
    if (!http.baseUrl.trim() || !http.model.trim()) {
      this.setReasoning({ judging: null, error: "Set the HTTP judge's endpoint and model first." });
      return;
    }
    const cancel = new AbortController();
    this.judging = cancel;
    const cache = this.trailCache;
    const judge = cachedTrailJudge(
      httpTrailJudge({
        baseUrl: http.baseUrl.trim(),
        model: http.model.trim(),
        apiKey: localStorage.getItem(JUDGE_KEY_STORAGE) || undefined,
        timeoutMs: http.timeoutMs,
        cancel: cancel.signal,
        fetch: (url, init) => fetch(url, init as RequestInit),
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      }),
      {
        get: (k) => cache.get(k),
        set: (k, v) => {
          cache.set(k, v);
        },
      },
    );
    const requests = trailRequests(items, predictions);
    this.setReasoning({ judging: { done: 0, total: requests.length }, error: null });
    const verdicts = await judgeTrails(requests, judge, {
      concurrency: 4,
      onProgress: (done, total) => {
        if (gen === this.generation) this.setReasoning({ judging: { done, total } });
      },
    });
    if (gen !== this.generation) return;
    this.judging = null;
    this.set({ fomer: scoreTrails(items, predictions, report, verdicts, judge.info, settings) });
    this.setReasoning({ judging: null });
  }
}
