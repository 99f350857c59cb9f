import { cachedJudge } from '../core/scoring/judges/cache.ts';
import { httpJudge } from '../core/scoring/judges/http.ts';
import type { Judge } from '../core/scoring/judges/types.ts';
import { oracleBaseline, randomWalkBaseline } from '../core/scoring/baselines.ts';
import { allRecords, liteResult, type LiteResult } from '../core/scoring/paper/lite.ts';
import type { ScoredRecord } from '../core/scoring/paper/types.ts';
import { toPredictionJsonl } from '../formats/predictions/jsonl.ts';
import type { TraversaDb } from '../persistence/db.ts';
import type { StudioStore, ScoringState } from '../state/store.ts';
import { JUDGE_KEY_STORAGE } from '../ui/score/judgeKey.ts';
import { runScoring, type ScoreProgress, type ScoreRequest, type ScoreResult } from '../workers/scoreHandler.ts';
import { reportFiles } from '../workers/scoreLite.ts';
import type { ScoreWorkerRequest } from '../workers/score.worker.ts';

type Files = { json: string; csv: string };

/** Where scoring runs and the full records stay: a worker, or this thread. */
interface Backend {
  score(req: ScoreRequest, progress: (p: ScoreProgress) => void, judge?: Judge): Promise<LiteResult>;
  record(model: string, i: number): Promise<ScoredRecord | null>;
  files(): Promise<Files | null>;
  dispose(): void;
}

/** This thread: for the HTTP judge (its key and cache live here) and where workers are unavailable. */
class LocalBackend implements Backend {
  private last: ScoreResult | null = null;
  async score(req: ScoreRequest, progress: (p: ScoreProgress) => void, judge?: Judge) {
    this.last = await runScoring(req, progress, judge);
    return liteResult(this.last);
  }
  async record(model: string, i: number) {
    const r = this.last?.reports.find(([m]) => m === model)?.[1];
    return r ? allRecords(r)[i] ?? null : null;
  }
  async files() { return this.last ? reportFiles(this.last) : null; }
  dispose() { this.last = null; }
}

/** A module worker that scores and keeps the full records; the page gets light rows. */
class WorkerBackend implements Backend {
  private worker = new Worker(new URL('../workers/score.worker.ts', import.meta.url), { type: 'module' });
  private waiting = new Map<number, (v: unknown) => void>();
  private ticket = 0;
  private scoring: { resolve: (r: LiteResult) => void; reject: (e: Error) => void; progress: (p: ScoreProgress) => void } | null = null;

  constructor() {
    this.worker.onmessage = (e: MessageEvent<
      | { type: 'progress'; progress: ScoreProgress } | { type: 'done'; result: LiteResult } | { type: 'error'; message: string }
      | { type: 'record'; ticket: number; record: ScoredRecord | null } | { type: 'export'; ticket: number; files: Files | null }>) => {
      const m = e.data;
      if (m.type === 'progress') this.scoring?.progress(m.progress);
      else if (m.type === 'done') { this.scoring?.resolve(m.result); this.scoring = null; }
      else if (m.type === 'error') { this.scoring?.reject(new Error(m.message)); this.scoring = null; }
      else if (m.type === 'record') this.answer(m.ticket, m.record);
      else this.answer(m.ticket, m.files);
    };
    this.worker.onerror = (e) => { this.scoring?.reject(new Error(`the scoring worker failed: ${e.message}`)); this.scoring = null; };
  }

  private answer(ticket: number, value: unknown) {
    this.waiting.get(ticket)?.(value);
    this.waiting.delete(ticket);
  }

  private ask<T>(msg: (ticket: number) => ScoreWorkerRequest): Promise<T> {
    const ticket = ++this.ticket;
    return new Promise((resolve) => { this.waiting.set(ticket, resolve as (v: unknown) => void); this.worker.postMessage(msg(ticket)); });
  }

  score(req: ScoreRequest, progress: (p: ScoreProgress) => void) {
    return new Promise<LiteResult>((resolve, reject) => {
      this.scoring = { resolve, reject, progress };
      this.worker.postMessage({ type: 'score', request: req } satisfies ScoreWorkerRequest);
    });
  }
  record(model: string, i: number) { return this.ask<ScoredRecord | null>((ticket) => ({ type: 'record', model, i, ticket })); }
  files() { return this.ask<Files | null>((ticket) => ({ type: 'export', ticket })); }
  dispose() { this.worker.terminate(); }
}

/**
 * Scores loaded predictions against the current project — in a worker (main-thread fallback),
 * or on the main thread with the HTTP judge — and fetches full records and report files from
 * wherever the scoring ran.
 */
export class ScoringRunner {
  private backend: Backend | null = null;

  constructor(private store: StudioStore, private db: TraversaDb) {}

  private set(patch: Partial<ScoringState>) {
    this.store.setState((s) => ({ scoring: { ...s.scoring, ...patch } }));
  }

  load(files: { path: string; text: string }[], source: string): void {
    this.set({ files, source, reports: [], detail: null, problems: [], status: { state: 'idle' }, selectedRecord: null });
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
    this.set({ status: { state: 'running', phase: 'read' }, reports: [], detail: null, problems: [], selectedRecord: null });
    const st = scoring.settings;
    const progress = (p: ScoreProgress) => this.set({ status: { state: 'running', phase: p.model ? `${p.phase} · ${p.model}` : p.phase, ...(p.done !== undefined ? { done: p.done } : {}), ...(p.total !== undefined ? { total: p.total } : {}) } });
    const judge: ScoreRequest['judge'] = st.judge === 'imported' && st.verdicts ? { kind: 'imported', file: st.verdicts } : st.judge === 'none' ? { kind: 'none' } : { kind: 'rule' };
    const req: ScoreRequest = { project: document.project, files: scoring.files, weights: st.weights, averaging: st.averaging, bootstrap: st.bootstrap, judge };
    const http = st.judge === 'http';
    // The worker is kept between runs (a warm worker scores faster); the HTTP judge runs here.
    const wantWorker = !http && typeof Worker !== 'undefined';
    if (!this.backend || (this.backend instanceof WorkerBackend) !== wantWorker) {
      this.backend?.dispose();
      this.backend = wantWorker ? new WorkerBackend() : new LocalBackend();
    }
    try {
      const result = await this.backend.score(req, progress, http ? this.httpJudge() : undefined);
      this.set({
        status: { state: 'done' }, reports: result.reports, problems: result.problems,
        selectedModel: result.reports[0]?.[0] ?? null, compareModel: result.reports[1]?.[0] ?? null,
      });
    } catch (e) {
      this.set({ status: { state: 'error', message: e instanceof Error ? e.message : String(e) } });
    }
  }

  /** Fetch the full record of a row for the preview. */
  async open(model: string, i: number): Promise<void> {
    const record = await this.backend?.record(model, i) ?? null;
    this.set({ detail: record });
  }

  reportFiles(): Promise<Files | null> {
    return this.backend?.files() ?? Promise.resolve(null);
  }

  private httpJudge(): Judge {
    const { http } = this.store.getState().scoring.settings;
    if (!http.baseUrl || !http.model) throw new Error('the HTTP judge needs an endpoint URL and a model');
    const db = this.db;
    return cachedJudge(httpJudge({
      baseUrl: http.baseUrl, model: http.model, apiKey: localStorage.getItem(JUDGE_KEY_STORAGE) ?? undefined,
      fetch: (url, init) => fetch(url, init), sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    }), {
      get: async (key) => { const v = await db.verdicts.get(key); return v ? { correct: v.correct, ...(v.explanation !== undefined ? { explanation: v.explanation } : {}) } : undefined; },
      set: async (key, v) => { await db.verdicts.put({ key, ...v }); },
    });
  }
}
