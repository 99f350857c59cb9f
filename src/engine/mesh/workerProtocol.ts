import { MeshLoadError } from './errors.ts';
import { serve, type WorkerScopeLike } from '../workerPort.ts';

export type { WorkerScopeLike };

/**
 * The message protocol between the mesh workers and the page. One job per worker: the worker says
 * `ready` once its modules have loaded, so a worker that cannot start is noticed before any buffer
 * has been transferred to it (and the page can still do the job itself).
 */

export type WorkerKind = 'parse' | 'bvh';

export interface RunMessage<P> {
  type: 'run';
  id: number;
  payload: P;
}

export interface SerializedError {
  name: string;
  message: string;
  file?: string;
  reason?: string;
}

export type ReplyMessage<R> =
  | { type: 'ready' }
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'done'; id: number; result: R }
  | { type: 'failed'; id: number; error: SerializedError };

export interface Handled<R> {
  result: R;
  transfer: Transferable[];
}

/**
 * Pure work shared by the worker and the main-thread fallback. It may be asynchronous: Basis
 * transcoding has to instantiate its WebAssembly module first, which browsers only do asynchronously.
 */
export type Handler<P, R> = (payload: P, progress: (fraction: number) => void) => Handled<R> | Promise<Handled<R>>;

export function serializeError(err: unknown): SerializedError {
  if (err instanceof MeshLoadError) return { name: err.name, message: err.message, file: err.file, reason: err.reason };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

export function deserializeError(e: SerializedError): Error {
  if (e.name === 'MeshLoadError' && e.file !== undefined && e.reason !== undefined) return new MeshLoadError(e.file, e.reason);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

/**
 * Answer one `run` message with `handler`: progress (throttled: a BVH build reports thousands of
 * times), then its result with the buffers to hand back, or its failure. The worker files and the
 * page's fallback (workerClient.ts) answer the same way.
 */
export async function answerRun<P, R>(handler: Handler<P, R>, msg: RunMessage<P>, post: (m: ReplyMessage<R>, transfer: Transferable[]) => void): Promise<void> {
  const id = msg.id;
  let last = 0;
  const progress = (fraction: number) => {
    const now = Date.now();
    if (now - last < 50) return;
    last = now;
    post({ type: 'progress', id, fraction }, []);
  };
  try {
    const { result, transfer } = await handler(msg.payload, progress);
    post({ type: 'done', id, result }, transfer);
  } catch (err) {
    post({ type: 'failed', id, error: serializeError(err) }, []);
  }
}

/** The body of a mesh worker file: answer `run` messages with `handler`, transferring its buffers back. */
export function serveRequests<P, R>(scope: WorkerScopeLike, handler: Handler<P, R>): void {
  serve<Partial<RunMessage<P>> | null, ReplyMessage<R>>(scope, (reply) => (msg) => {
    if (msg && msg.type === 'run' && typeof msg.id === 'number') void answerRun(handler, msg as RunMessage<P>, reply);
  });
}

/** Checks a message from a worker has the protocol's shape (habit: validate at every boundary). */
export function asReply(data: unknown): ReplyMessage<unknown> | null {
  if (!data || typeof data !== 'object') return null;
  const m = data as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'progress':
      return typeof m.id === 'number' && typeof m.fraction === 'number' ? (m as ReplyMessage<unknown>) : null;
    case 'done':
      return typeof m.id === 'number' && 'result' in m ? (m as ReplyMessage<unknown>) : null;
    case 'failed': {
      const e = m.error as Record<string, unknown> | undefined;
      return typeof m.id === 'number' && e && typeof e.name === 'string' && typeof e.message === 'string' ? (m as ReplyMessage<unknown>) : null;
    }
    default:
      return null;
  }
}
