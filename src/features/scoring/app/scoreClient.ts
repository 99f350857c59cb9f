import type { HttpJudgeIo } from '../../../core/scoring/judges/choose.ts';
import type { ScoredRecord } from '../../../core/scoring/paper/types.ts';
import { runScoring, throttled, type ScoringOutcome, type ScoringProgress, type ScoringRequest } from '../../../core/scoring/pipeline.ts';
import {
  liteOutcome,
  recordAt,
  type ExportSelection,
  type LiteOutcome,
  type ReportFiles,
  type ScoreWorkerReply,
  type ScoreWorkerRequest,
} from '../../../core/scoring/workerProtocol.ts';
import { predictionReaders } from '../../../formats/predictions/read.ts';
import { reportFiles } from '../../../formats/scoreDownloads.ts';
import { yieldNow } from '../../../engine/yieldNow.ts';
import { WorkerPort, type WorkerLike } from '../../../engine/workerPort.ts';
import { scoreService } from '../../../workers/scoreHandler.ts';

/** Where scoring runs and the full records stay: the scoring worker, or this thread. */
export interface ScoringBackend {
  score(req: ScoringRequest, progress: (p: ScoringProgress) => void, http?: HttpJudgeIo): Promise<LiteOutcome>;
  record(model: string, i: number): Promise<ScoredRecord | null>;
  /** The downloads; `only`: the filtered records of one model (the record table's). */
  files(only?: ExportSelection): Promise<ReportFiles | null>;
  dispose(): void;
}

/**
 * This thread, through the same pipeline the worker runs: for the HTTP judge (its key and verdict
 * cache live on the page) and where workers are unavailable.
 */
export class LocalScoring implements ScoringBackend {
  private last: ScoringOutcome | null = null;
  async score(req: ScoringRequest, progress: (p: ScoringProgress) => void, http?: HttpJudgeIo) {
    this.last = null;
    // Yield between chunks so the page can paint the progress.
    this.last = await runScoring(req, predictionReaders, { chunkSize: 5000, yieldNow, onProgress: throttled(progress), http });
    return liteOutcome(this.last);
  }
  async record(model: string, i: number) {
    return recordAt(this.last, model, i);
  }
  async files(only?: ExportSelection) {
    return this.last?.mode === 'paper' ? reportFiles(this.last, only) : null;
  }
  dispose() {
    this.last = null;
  }
}

/** The scoring worker (the `new Worker(new URL(…))` shape stays literal for Vite), or null where none can start. */
function startScoreWorker(): WorkerLike | null {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(new URL('../../../workers/score.worker.ts', import.meta.url), { type: 'module', name: 'score' });
  } catch {
    return null; // e.g. a policy that forbids workers: the page scores itself
  }
}

/** How long a record or a download may take to come back from a ready worker. */
const ANSWER_TIMEOUT_MS = 60_000;

/**
 * The scoring worker (src/workers/score.worker.ts), over its typed protocol; it keeps the full
 * records. Through engine/workerPort.ts: a worker that cannot start, fails to load or is not ready
 * in time leaves the same handler to score on this thread; one that stops fails what it was asked.
 */
export class WorkerScoring implements ScoringBackend {
  private port: WorkerPort<ScoreWorkerRequest, ScoreWorkerReply>;
  private waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private ticket = 0;
  private scoring: { resolve: (r: LiteOutcome) => void; reject: (e: Error) => void; progress: (p: ScoringProgress) => void } | null = null;

  constructor(options: { startWorker?: () => WorkerLike | null; readyTimeoutMs?: number; answerTimeoutMs?: number } = {}) {
    this.answerTimeoutMs = options.answerTimeoutMs ?? ANSWER_TIMEOUT_MS;
    this.port = new WorkerPort({
      name: 'the scoring worker',
      start: options.startWorker ?? startScoreWorker,
      here: scoreService,
      ...(options.readyTimeoutMs !== undefined ? { readyTimeoutMs: options.readyTimeoutMs } : {}),
      onReply: (m) => this.onReply(m),
      // Nothing will answer now: the run and every request waiting fail with the reason.
      onCrash: (reason) => this.failAll(new Error(`the scoring worker failed: ${reason}`)),
    });
  }
  private answerTimeoutMs: number;

  /** Where scoring runs: the worker, this thread, or not decided yet (the worker is loading). */
  get where() {
    return this.port.where;
  }

  private onReply(m: ScoreWorkerReply) {
    if (m.type === 'progress') this.scoring?.progress(m.progress);
    else if (m.type === 'done') {
      this.scoring?.resolve(m.result);
      this.scoring = null;
    } else if (m.type === 'error' && m.ticket !== undefined) this.fail(m.ticket, new Error(m.message));
    else if (m.type === 'error') {
      this.scoring?.reject(new Error(m.message));
      this.scoring = null;
    } else if (m.type === 'record') this.answer(m.ticket, m.record);
    else this.answer(m.ticket, m.files);
  }

  private failAll(err: Error) {
    this.scoring?.reject(err);
    this.scoring = null;
    for (const t of [...this.waiting.keys()]) this.fail(t, err);
  }

  private answer(ticket: number, value: unknown) {
    const w = this.waiting.get(ticket);
    if (!w) return;
    clearTimeout(w.timer);
    this.waiting.delete(ticket);
    w.resolve(value);
  }

  private fail(ticket: number, err: Error) {
    const w = this.waiting.get(ticket);
    if (!w) return;
    clearTimeout(w.timer);
    this.waiting.delete(ticket);
    w.reject(err);
  }

  private ask<T>(msg: (ticket: number) => ScoreWorkerRequest): Promise<T> {
    const ticket = ++this.ticket;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(ticket, new Error(`the scoring worker did not answer within ${Math.round(this.answerTimeoutMs / 1000)} s`)),
        this.answerTimeoutMs,
      );
      this.waiting.set(ticket, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.port.post(msg(ticket));
    });
  }

  score(req: ScoringRequest, progress: (p: ScoringProgress) => void) {
    return new Promise<LiteOutcome>((resolve, reject) => {
      this.scoring = { resolve, reject, progress };
      this.port.post({ type: 'score', request: req } satisfies ScoreWorkerRequest);
    });
  }
  record(model: string, i: number) {
    return this.ask<ScoredRecord | null>((ticket) => ({ type: 'record', model, i, ticket }));
  }
  files(only?: ExportSelection) {
    return this.ask<ReportFiles | null>((ticket) => ({ type: 'export', ticket, ...(only ? { only } : {}) }));
  }
  /** Stop the worker: a run or a request still waiting fails as cancelled. */
  dispose() {
    this.port.close();
    this.failAll(new Error('Scoring was cancelled'));
  }
}
