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

/** The scoring worker (src/workers/score.worker.ts), over its typed protocol; it keeps the full records. */
export class WorkerScoring implements ScoringBackend {
  private worker = new Worker(new URL('../../../workers/score.worker.ts', import.meta.url), { type: 'module', name: 'score' });
  private waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private ticket = 0;
  private scoring: { resolve: (r: LiteOutcome) => void; reject: (e: Error) => void; progress: (p: ScoringProgress) => void } | null = null;

  constructor() {
    this.worker.onmessage = (e: MessageEvent<ScoreWorkerReply>) => {
      const m = e.data;
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
    };
    this.worker.onerror = (e) => {
      // Nothing will answer now: the run and every request waiting fail with the reason.
      const err = new Error(`the scoring worker failed: ${e.message}`);
      this.scoring?.reject(err);
      this.scoring = null;
      for (const t of [...this.waiting.keys()]) this.fail(t, err);
    };
  }

  private answer(ticket: number, value: unknown) {
    this.waiting.get(ticket)?.resolve(value);
    this.waiting.delete(ticket);
  }

  private fail(ticket: number, err: Error) {
    this.waiting.get(ticket)?.reject(err);
    this.waiting.delete(ticket);
  }

  private ask<T>(msg: (ticket: number) => ScoreWorkerRequest): Promise<T> {
    const ticket = ++this.ticket;
    return new Promise((resolve, reject) => {
      this.waiting.set(ticket, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage(msg(ticket));
    });
  }

  score(req: ScoringRequest, progress: (p: ScoringProgress) => void) {
    return new Promise<LiteOutcome>((resolve, reject) => {
      this.scoring = { resolve, reject, progress };
      this.worker.postMessage({ type: 'score', request: req } satisfies ScoreWorkerRequest);
    });
  }
  record(model: string, i: number) {
    return this.ask<ScoredRecord | null>((ticket) => ({ type: 'record', model, i, ticket }));
  }
  files(only?: ExportSelection) {
    return this.ask<ReportFiles | null>((ticket) => ({ type: 'export', ticket, ...(only ? { only } : {}) }));
  }
  dispose() {
    this.worker.terminate();
  }
}
