import { MeshLoadError } from './errors.ts';

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

/** What a dedicated worker's global scope offers (typed loosely so tests can stand in for it). */
export interface WorkerScopeLike {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  postMessage(message: unknown, options: { transfer: Transferable[] }): void;
}

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

/** The body of a worker file: answer `run` messages with `handler`, transferring its buffers back. */
export function serveRequests<P, R>(scope: WorkerScopeLike, handler: Handler<P, R>): void {
  scope.addEventListener('message', async (event: MessageEvent) => {
    const msg = event.data as Partial<RunMessage<P>> | null;
    if (!msg || msg.type !== 'run' || typeof msg.id !== 'number') return;
    const id = msg.id;
    let last = 0;
    // Progress messages are throttled: a BVH build reports thousands of times.
    const progress = (fraction: number) => {
      const now = Date.now();
      if (now - last < 50) return;
      last = now;
      scope.postMessage({ type: 'progress', id, fraction } satisfies ReplyMessage<R>, { transfer: [] });
    };
    try {
      const { result, transfer } = await handler(msg.payload as P, progress);
      scope.postMessage({ type: 'done', id, result } satisfies ReplyMessage<R>, { transfer });
    } catch (err) {
      scope.postMessage({ type: 'failed', id, error: serializeError(err) } satisfies ReplyMessage<R>, { transfer: [] });
    }
  });
  scope.postMessage({ type: 'ready' } satisfies ReplyMessage<R>, { transfer: [] });
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
