import { cachedJudge } from '../core/scoring/judges/cache.ts';
import { httpJudge } from '../core/scoring/judges/http.ts';
import type { Judge } from '../core/scoring/judges/types.ts';
import { oracleBaseline, randomWalkBaseline } from '../core/scoring/baselines.ts';
import { toPredictionJsonl } from '../formats/predictions/jsonl.ts';
import { recordsCsv } from '../formats/scoreCsv.ts';
import { paperSummary } from '../core/scoring/paper/export.ts';
import type { TraversaDb } from '../persistence/db.ts';
import { JUDGE_KEY_STORAGE } from '../ui/score/judgeKey.ts';
import type { StudioStore, ScoringState } from '../state/store.ts';
import { runScoring, type ScoreRequest, type ScoreResult, type ScoreProgress } from '../workers/scoreHandler.ts';


/**
 * Scores loaded predictions against the current project in a worker (main-thread fallback), or
 * on the main thread with the HTTP judge (its key and verdict cache live here, not in a worker).
 */
export class ScoringRunner {
  constructor(private store: StudioStore, private db: TraversaDb) {}

  private set(patch: Partial<ScoringState>) {
    this.store.setState((s) => ({ scoring: { ...s.scoring, ...patch } }));
  }

  load(files: { path: string; text: string }[], source: string): void {
    this.set({ files, source, reports: [], problems: [], status: { state: 'idle' }, selectedRecord: null });
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

  /** The report as JSON: the summary per model (settings included) and every record. */
  reportJson(): { path: string; text: string } | null {
    const { reports, problems } = this.store.getState().scoring;
    if (!reports.length) return null;
    const map = new Map(reports);
    return { path: 'traversa-scores.json', text: JSON.stringify({ summary: paperSummary(map, problems), records: reports.flatMap(([, r]) => [...r.records, ...r.excluded, ...r.unmatched]) }, null, 1) };
  }

  reportCsv(): { path: string; text: string } | null {
    const { reports } = this.store.getState().scoring;
    return reports.length ? { path: 'traversa-records.csv', text: recordsCsv(reports) } : null;
  }

  async run(): Promise<void> {
    const { document, scoring } = this.store.getState();
    if (!document.project || !scoring.files.length) return;
    this.set({ status: { state: 'running', phase: 'read' }, reports: [], problems: [], selectedRecord: null });
    const st = scoring.settings;
    const base = { project: document.project, files: scoring.files, weights: st.weights, averaging: st.averaging, bootstrap: st.bootstrap };
    const progress = (p: ScoreProgress) => this.set({ status: { state: 'running', phase: p.model ? `${p.phase} · ${p.model}` : p.phase, ...(p.done !== undefined ? { done: p.done } : {}), ...(p.total !== undefined ? { total: p.total } : {}) } });
    try {
      let result: ScoreResult;
      if (st.judge === 'http') result = await this.runWithHttpJudge(base, progress);
      else {
        const judge: ScoreRequest['judge'] = st.judge === 'imported' && st.verdicts ? { kind: 'imported', file: st.verdicts } : st.judge === 'none' ? { kind: 'none' } : { kind: 'rule' };
        result = await inWorker({ ...base, judge }, progress);
      }
      this.set({
        status: { state: 'done' }, reports: result.reports, problems: result.problems,
        selectedModel: result.reports[0]?.[0] ?? null, compareModel: result.reports[1]?.[0] ?? null,
      });
    } catch (e) {
      this.set({ status: { state: 'error', message: e instanceof Error ? e.message : String(e) } });
    }
  }

  private async runWithHttpJudge(base: Omit<ScoreRequest, 'judge'>, progress: (p: ScoreProgress) => void): Promise<ScoreResult> {
    const { http } = this.store.getState().scoring.settings;
    if (!http.baseUrl || !http.model) throw new Error('the HTTP judge needs an endpoint URL and a model');
    const db = this.db;
    const judge: Judge = cachedJudge(httpJudge({
      baseUrl: http.baseUrl, model: http.model, apiKey: localStorage.getItem(JUDGE_KEY_STORAGE) ?? undefined,
      fetch: (url, init) => fetch(url, init), sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    }), {
      get: async (key) => { const v = await db.verdicts.get(key); return v ? { correct: v.correct, ...(v.explanation !== undefined ? { explanation: v.explanation } : {}) } : undefined; },
      set: async (key, v) => { await db.verdicts.put({ key, ...v }); },
    });
    return runScoring({ ...base, judge: { kind: 'none' } }, progress, judge);
  }
}

/** Run the scoring in a module worker; where workers are unavailable, on this thread. */
function inWorker(req: ScoreRequest, onProgress: (p: ScoreProgress) => void): Promise<ScoreResult> {
  if (typeof Worker === 'undefined') return runScoring(req, onProgress);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../workers/score.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<{ type: 'progress'; progress: ScoreProgress } | { type: 'done'; result: ScoreResult } | { type: 'error'; message: string }>) => {
      const m = e.data;
      if (m.type === 'progress') onProgress(m.progress);
      else { worker.terminate(); if (m.type === 'done') resolve(m.result); else reject(new Error(m.message)); }
    };
    worker.onerror = (e) => { worker.terminate(); reject(new Error(`the scoring worker failed: ${e.message}`)); };
    worker.postMessage(req);
  });
}
