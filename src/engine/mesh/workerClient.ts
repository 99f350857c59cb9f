import { MeshLoadError, abortReason, seconds } from './errors.ts';
import { answerRun, asReply, deserializeError, type Handler, type RunMessage, type WorkerKind } from './workerProtocol.ts';
import { WorkerPort, type WorkerLike } from '../workerPort.ts';

export type { WorkerLike };

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

let nextId = 1;

/**
 * Run a job in a fresh worker (terminated afterwards), or on this thread when no worker starts
 * (engine/workerPort.ts: none can be made, it fails to load, or is not ready in time). Once the
 * worker is ready the job has `timeoutMs`; an abort stops it at once.
 */
export function runJob<P, R>(job: Job<P, R>): Promise<JobResult<R>> {
  if (job.signal?.aborted) return Promise.reject(abortReason(job.signal));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let where: 'worker' | 'main' = 'main';
    const finish = (then: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      job.signal?.removeEventListener('abort', onAbort);
      port.close();
      then();
    };
    const fail = (reason: string) => finish(() => reject(new MeshLoadError(job.file, reason)));
    const port = new WorkerPort<RunMessage<P>, unknown>({
      name: `the ${job.kind} worker`,
      start: () => job.createWorker(job.kind),
      here: (reply) => (msg) => void answerRun(job.handler, msg, reply),
      onReady: (w) => {
        where = w;
        if (w === 'worker')
          timer = setTimeout(
            () => fail(`${job.doing} did not finish within ${seconds(job.timeoutMs)} s (the file may be too large for this machine)`),
            job.timeoutMs,
          );
      },
      onReply: (data) => {
        const reply = asReply(data);
        if (!reply) return fail(`${job.doing} failed: the worker sent a message this page does not understand`);
        if (reply.type === 'ready' || reply.id !== id) return;
        if (reply.type === 'progress') job.onProgress?.(reply.fraction);
        else if (reply.type === 'done') finish(() => resolve({ result: reply.result as R, where }));
        else finish(() => reject(deserializeError(reply.error)));
      },
      onCrash: (reason) => fail(`${job.doing} failed in the worker: ${reason}`),
    });
    const onAbort = () => finish(() => reject(abortReason(job.signal!)));
    job.signal?.addEventListener('abort', onAbort, { once: true });
    port.post({ type: 'run', id, payload: job.payload }, job.transfer);
  });
}
