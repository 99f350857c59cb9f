import { MeshLoadError, abortReason, seconds } from './errors.ts';
import { asReply, deserializeError, type Handler, type RunMessage, type WorkerKind } from './workerProtocol.ts';

/** The part of `Worker` the client uses (tests supply their own). */
export interface WorkerLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: Event) => void): void;
  terminate(): void;
}

/** Returns a started worker for `kind`, or null to do the job on the calling thread. */
export type WorkerFactory = (kind: WorkerKind) => WorkerLike | null;

/**
 * Vite module workers. The `new Worker(new URL(…), …)` shapes must stay literal: that is how Vite
 * finds and bundles worker entries. No `Worker` (Node, old embedders) means the calling thread.
 */
export const defaultWorkerFactory: WorkerFactory = (kind) => {
  if (typeof Worker === 'undefined') return null;
  try {
    return kind === 'parse'
      ? new Worker(new URL('../../workers/meshParse.worker.ts', import.meta.url), { type: 'module', name: 'mesh-parse' })
      : new Worker(new URL('../../workers/bvhBuild.worker.ts', import.meta.url), { type: 'module', name: 'mesh-bvh' });
  } catch {
    return null; // e.g. a CSP that forbids workers: the job still gets done, just on this thread
  }
};

export interface Job<P, R> {
  kind: WorkerKind;
  /** The file the job is about, for error messages. */
  file: string;
  /** What the job does, for error messages ("parsing", "building the BVH"). */
  doing: string;
  payload: P;
  /** Buffers in `payload` the worker may take over (they are detached afterwards). */
  transfer: Transferable[];
  handler: Handler<P, R>;
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  createWorker: WorkerFactory;
}

export interface JobResult<R> {
  result: R;
  where: 'worker' | 'main';
}

/** How long a worker may take to load its modules before the page does the job itself. */
const READY_TIMEOUT_MS = 15_000;

let nextId = 1;

/** Run a job in a fresh worker (terminated afterwards), or on this thread when no worker can start. */
export async function runJob<P, R>(job: Job<P, R>): Promise<JobResult<R>> {
  if (job.signal?.aborted) throw abortReason(job.signal);
  const worker = job.createWorker(job.kind);
  if (!worker) return { result: await runHere(job), where: 'main' };
  const outcome = await inWorker(worker, job);
  if (outcome === 'not-started') return { result: await runHere(job), where: 'main' };
  return { result: outcome.result, where: 'worker' };
}

async function runHere<P, R>(job: Job<P, R>): Promise<R> {
  return (await job.handler(job.payload, job.onProgress ?? (() => {}))).result;
}

function inWorker<P, R>(worker: WorkerLike, job: Job<P, R>): Promise<{ result: R } | 'not-started'> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    let started = false;
    let settled = false;
    let timer = setTimeout(() => finish(() => resolve('not-started')), READY_TIMEOUT_MS);
    const finish = (then: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      job.signal?.removeEventListener('abort', onAbort);
      worker.terminate();
      then();
    };
    const onAbort = () => finish(() => reject(abortReason(job.signal!)));
    job.signal?.addEventListener('abort', onAbort, { once: true });

    worker.addEventListener('message', (event) => {
      const reply = asReply((event as MessageEvent).data);
      if (!reply) return finish(() => reject(new MeshLoadError(job.file, `${job.doing} failed: the worker sent a message this page does not understand`)));
      if (reply.type === 'ready') {
        if (started) return;
        started = true;
        clearTimeout(timer);
        timer = setTimeout(
          () =>
            finish(() =>
              reject(
                new MeshLoadError(job.file, `${job.doing} did not finish within ${seconds(job.timeoutMs)} s (the file may be too large for this machine)`),
              ),
            ),
          job.timeoutMs,
        );
        worker.postMessage({ type: 'run', id, payload: job.payload } satisfies RunMessage<P>, job.transfer);
        return;
      }
      if (reply.id !== id) return;
      if (reply.type === 'progress') job.onProgress?.(reply.fraction);
      else if (reply.type === 'done') finish(() => resolve({ result: reply.result as R }));
      else finish(() => reject(deserializeError(reply.error)));
    });
    // Before `ready` nothing was handed over, so a worker that fails to load leaves the job to this thread.
    const onError = (event: Event) => {
      if (!started) return finish(() => resolve('not-started'));
      const detail = (event as ErrorEvent).message || 'it stopped unexpectedly (out of memory?)';
      finish(() => reject(new MeshLoadError(job.file, `${job.doing} failed in the worker: ${detail}`)));
    };
    worker.addEventListener('error', onError);
    worker.addEventListener('messageerror', onError);
  });
}
