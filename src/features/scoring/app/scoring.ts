import { oracleBaseline, randomWalkBaseline } from '../../../core/scoring/baselines.ts';
import type { HttpJudgeIo, JudgeChoice } from '../../../core/scoring/judges/choose.ts';
import type { PaperRequest, ScoringProgress } from '../../../core/scoring/pipeline.ts';
import type { ScoredRecord } from '../../../core/scoring/paper/types.ts';
import type { ReportFiles } from '../../../core/scoring/workerProtocol.ts';
import { toPredictionJsonl } from '../../../formats/predictions/jsonl.ts';
import type { TraversaDb } from '../../../persistence/db.ts';
import type { StudioStore, ScoringState } from '../../../state/store.ts';
import { JUDGE_KEY_STORAGE } from '../ui/judgeKey.ts';
import { exportSelection } from '../state/scoreSelectors.ts';
import { LocalScoring, WorkerScoring, type ScoringBackend } from './scoreClient.ts';
import { referenceFiles, referenceRequest, referenceView } from './scoringReference.ts';
import { referenceJudge } from '../../../core/scoring/compat/run.ts';
import type { Project } from '../../../core/project.ts';
import type { CompatResult } from '../../../core/scoring/compat/types.ts';
import { patchState } from '../../../state/patch.ts';

/**
 * Scores loaded predictions against the current project — in a worker (main-thread fallback),
 * or on the main thread with the HTTP judge — and fetches full records and report files from
 * wherever the scoring ran.
 */
export class ScoringRunner {
  private backend: ScoringBackend | null = null;
  /** The records of the last reference run (kept here for the downloads, not in the store). */
  private reference: CompatResult | null = null;
  /** Cancels the HTTP judge of the run in progress. */
  private judging: AbortController | null = null;

  constructor(
    private store: StudioStore,
    private db: TraversaDb,
  ) {}

  private set(patch: Partial<ScoringState>) {
    patchState(this.store, 'scoring', patch);
  }

  /** `root`: the picked folder's name, or the one picked file's (names the model of loose files, as `--pred` does). */
  load(files: { path: string; text: string }[], source: string, root: string): void {
    this.set({ files, source, root, reports: [], detail: null, problems: [], status: { state: 'idle' }, selectedRecord: null, compat: null });
  }

  /** Add the random-walk lower bound or the oracle as one more model to score. */
  addBaseline(kind: 'random' | 'oracle'): void {
    const project = this.store.getState().document.project;
    if (!project) return;
    const rows = kind === 'random' ? randomWalkBaseline(project, { seed: 1 }) : oracleBaseline(project);
    const path = `${kind === 'random' ? 'random-walk' : 'oracle'}.jsonl`;
    const files = this.store.getState().scoring.files.filter((f) => f.path !== path);
    this.set({ files: [...files, { path, text: toPredictionJsonl(rows) }], source: this.store.getState().scoring.source ?? 'baselines' });
  }

  async run(): Promise<void> {
    const { document, scoring } = this.store.getState();
    if (!document.project || !scoring.files.length) return;
    this.set({ status: { state: 'running', phase: 'read' }, reports: [], detail: null, problems: [], selectedRecord: null, compat: null });
    this.reference = null;
    const st = scoring.settings;
    if (st.conventions === 'reference') return this.runReference(document.project, scoring);
    const progress = (p: ScoringProgress) =>
      this.set({
        status: { state: 'running', phase: 'model' in p ? `${p.phase} · ${p.model}` : p.phase, ...('done' in p ? { done: p.done, total: p.total } : {}) },
      });
    const http = st.judge === 'http';
    // The worker is kept between runs (a warm worker scores faster); the HTTP judge runs here.
    const wantWorker = !http && typeof Worker !== 'undefined';
    if (!this.backend || this.backend instanceof WorkerScoring !== wantWorker) {
      this.backend?.dispose();
      this.backend = wantWorker ? new WorkerScoring() : new LocalScoring();
    }
    try {
      const judge: JudgeChoice = http
        ? { kind: 'http', baseUrl: st.http.baseUrl, model: st.http.model }
        : st.judge === 'imported' && st.verdicts
          ? { kind: 'imported', file: st.verdicts }
          : st.judge === 'none'
            ? { kind: 'none' }
            : { kind: 'rule' };
      const req: PaperRequest = {
        mode: 'paper',
        project: document.project,
        input: { root: scoring.root, files: scoring.files },
        settings: { judge, weights: st.weights, averaging: st.averaging, bootstrap: st.bootstrap },
      };
      const judging = http ? new AbortController() : null;
      this.judging = judging;
      const result = await this.backend.score(req, progress, judging ? this.httpIo(judging.signal) : undefined);
      if (result.mode !== 'paper') throw new Error('a paper-mode run returned another mode');
      const unjudged = result.reports.reduce((n, [, r]) => n + r.unjudged.count, 0);
      const plural = `${unjudged} record${unjudged === 1 ? '' : 's'}`;
      const message = !unjudged
        ? null
        : judging?.signal.aborted
          ? `Judging cancelled: ${plural} not judged — RV and the CapNav composite are withheld (each record says so).`
          : `The judge could not judge ${plural}: RV and the CapNav composite are withheld (each record says why). Score again when the judge works; its verdicts so far are kept.`;
      this.set({
        status: { state: 'done', ...(message ? { message } : {}) },
        reports: result.reports,
        problems: result.problems,
        selectedModel: result.reports[0]?.[0] ?? null,
        compareModel: result.reports[1]?.[0] ?? null,
        viewer: { open: false, hop: null, compare: null, compareDetail: null },
      });
    } catch (e) {
      this.set({ status: { state: 'error', message: e instanceof Error ? e.message : String(e) } });
    } finally {
      this.judging = null;
    }
  }

  /** Score as the released Python scorer does (`score --compat reference`), in the worker when there is one. */
  private async runReference(project: Project, scoring: ScoringState): Promise<void> {
    const judge = referenceJudge(scoring.settings.judge);
    if (!judge) {
      this.set({
        status: {
          state: 'error',
          message:
            'The released scorer’s conventions drop every reason, so only the offline rule judge or none can judge: choose one of them (or score in paper mode).',
        },
      });
      return;
    }
    if (!(this.backend instanceof WorkerScoring) && typeof Worker !== 'undefined') {
      this.backend?.dispose();
      this.backend = new WorkerScoring();
    }
    this.backend ??= new LocalScoring();
    try {
      const req = referenceRequest(project, scoring, judge);
      const result = await this.backend.score(req, () => {});
      if (result.mode !== 'compat') throw new Error('a reference run returned another mode');
      this.reference = result.result;
      this.set({ status: { state: 'done' }, reports: [], compat: referenceView(result, req) });
    } catch (e) {
      this.set({ status: { state: 'error', message: e instanceof Error ? e.message : String(e) } });
    }
  }

  /** The files of the last reference run, as `score --compat reference` writes them. */
  referenceFiles(): { name: string; text: string; type: string }[] {
    const view = this.store.getState().scoring.compat;
    return this.reference && view ? referenceFiles(this.reference, view) : [];
  }

  /**
   * Stop asking the HTTP judge: requests in flight are aborted, the rest are not sent, and the run
   * finishes at once with those records marked "judge cancelled" (everything else is scored).
   */
  cancel(): void {
    if (!this.judging || this.judging.signal.aborted) return;
    this.judging.abort();
    this.set({ status: { ...this.store.getState().scoring.status, phase: 'cancelling the judge' } });
  }

  /** Fetch the full record of a row for the preview (and the compared model's record of the same task, when the viewer compares). */
  async open(model: string, i: number): Promise<void> {
    const record = (await this.backend?.record(model, i)) ?? null;
    this.set({ detail: record });
    await this.openCompare(record);
  }

  /**
   * The route viewer's second model: its record for the same (scene, question, agent) as `record`,
   * or null when it has none (its first, if it predicted the task more than once).
   */
  async openCompare(record: ScoredRecord | null): Promise<void> {
    const { viewer, reports } = this.store.getState().scoring;
    let other: ScoredRecord | null = null;
    const rows = viewer.compare && record ? reports.find(([m]) => m === viewer.compare)?.[1].rows : undefined;
    if (rows && record && record.questionIndex !== null) {
      const scene = rows.scenes.indexOf(record.scene),
        agent = rows.agents.indexOf(record.agent);
      for (let i = 0; i < rows.length && scene >= 0 && agent >= 0; i++) {
        if (rows.scene[i] === scene && rows.agent[i] === agent && rows.questionIndex[i] === record.questionIndex) {
          other = (await this.backend?.record(viewer.compare!, i)) ?? null;
          break;
        }
      }
    }
    this.set({ viewer: { ...this.store.getState().scoring.viewer, compareDetail: other } });
  }

  /** The downloads: everything, or — while the record table is filtered — the records it shows. */
  reportFiles(): Promise<ReportFiles | null> {
    return this.backend?.files(exportSelection(this.store.getState())) ?? Promise.resolve(null);
  }

  /** The HTTP judge's IO on the page: its fetch, the time limit, the cancel, the key from localStorage, verdicts cached in IndexedDB. */
  private httpIo(cancel: AbortSignal): HttpJudgeIo {
    const { http } = this.store.getState().scoring.settings;
    if (!http.baseUrl || !http.model) throw new Error('the HTTP judge needs an endpoint URL and a model');
    const db = this.db;
    return {
      apiKey: localStorage.getItem(JUDGE_KEY_STORAGE) || undefined,
      timeoutMs: http.timeoutMs,
      cancel,
      fetch: (url, init) => fetch(url, init as RequestInit),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      cache: {
        get: async (key) => {
          const v = await db.verdicts.get(key);
          return v ? { correct: v.correct, ...(v.explanation !== undefined ? { explanation: v.explanation } : {}) } : undefined;
        },
        set: async (key, v) => {
          await db.verdicts.put({ key, ...v });
        },
      },
    };
  }
}
