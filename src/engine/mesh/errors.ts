/**
 * Why a mesh could not be loaded, in words a user can act on. `reason` is the plain sentence
 * without the file name (UIs show `file` next to it); `message` is `"<file>: <reason>"`.
 */
export class MeshLoadError extends Error {
  readonly file: string;
  readonly reason: string;

  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(`${file}: ${reason}`, options);
    this.name = 'MeshLoadError';
    this.file = file;
    this.reason = reason;
  }
}

/** The error an aborted load rejects with: the signal's own reason, else a standard AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('Mesh loading was aborted', 'AbortError');
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/** Settle with `promise`, or reject as soon as `signal` aborts (the work itself may run on; `late` gets its result). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, late?: (value: T) => void): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.then(late, () => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const onAbort = () => {
      if (done) return;
      done = true;
      reject(abortReason(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        if (done) late?.(v);
        else {
          done = true;
          resolve(v);
        }
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        if (!done) {
          done = true;
          reject(e);
        }
      },
    );
  });
}

/** A short description of any thrown value, for wrapping library errors into a MeshLoadError. */
export function describe(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  if (err && typeof err === 'object' && 'type' in err) return `${String((err as { type: unknown }).type)} event`;
  return String(err);
}

/**
 * Settle with `promise`, or reject with `timeoutError()` after `ms`. For work that cannot be
 * cancelled and may never settle (GLTFLoader waits forever on a Draco worker that failed to start).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, timeoutError: () => Error, late?: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(timeoutError());
    }, ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        if (done) late?.(v);
        else {
          done = true;
          resolve(v);
        }
      },
      (e) => {
        clearTimeout(timer);
        if (!done) {
          done = true;
          reject(e);
        }
      },
    );
  });
}

export const seconds = (ms: number) => (ms / 1000).toFixed(ms < 10_000 ? 1 : 0);
