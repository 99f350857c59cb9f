/**
 * The one way the page talks to a worker (the mesh jobs, the scene worker, the scoring worker).
 *
 * A worker says `{ type: 'ready' }` once its modules have loaded. Until then nothing is sent: the
 * requests wait here, so a worker that cannot be made, fails to load, or is not ready within the
 * time-out leaves them — intact, nothing transferred — to the same service on this thread, which
 * answers them as the worker would have. A worker that stops after it was ready (out of memory?)
 * is reported once with the reason; the requests it held are lost, and its owner decides what then.
 */

/** The part of `Worker` the port uses (tests supply their own). */
export interface WorkerLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: Event) => void): void;
  terminate(): void;
}

/** What a dedicated worker's global scope offers (typed loosely so tests can stand in for it). */
export interface WorkerScopeLike {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  postMessage(message: unknown, options: { transfer: Transferable[] }): void;
}

/**
 * The body of a worker file: hand each request to the service `make` builds (given where its
 * replies go), then say it is ready. Tests run the same body in this thread (test/support/inThreadWorker.ts).
 */
export function serve<Req, Rep>(scope: WorkerScopeLike, make: (reply: (m: Rep, transfer?: Transferable[]) => void) => (req: Req) => unknown): void {
  const handle = make((m, transfer = []) => scope.postMessage(m, { transfer }));
  scope.addEventListener('message', (event) => void handle(event.data as Req));
  scope.postMessage(READY, { transfer: [] });
}

/** The message every worker sends once its modules have loaded. */
export const READY = { type: 'ready' } as const;

/** How long a worker may take to load its modules before the page does the work itself. */
export const READY_TIMEOUT_MS = 15_000;

export interface PortOptions<Req, Rep> {
  /** What the worker is, for messages ("the scene worker"). */
  name: string;
  /** A started worker, or null where none can start (no Worker, a policy that forbids it). */
  start: () => WorkerLike | null;
  /** The same service on this thread: given where to reply, how it handles a request. */
  here: (reply: (m: Rep) => void) => (req: Req) => void;
  onReply: (m: Rep) => void;
  /** The worker stopped after it was ready (`reason` in words): what it held will not be answered. */
  onCrash: (reason: string) => void;
  /** The worker (or this thread) is ready: requests go to it from now on. */
  onReady?: (where: 'worker' | 'main') => void;
  readyTimeoutMs?: number;
}

export class WorkerPort<Req, Rep> {
  private worker: WorkerLike | null = null;
  private handleHere: ((req: Req) => void) | null = null;
  private queued: { req: Req; transfer: Transferable[] }[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private state: 'starting' | 'worker' | 'main' | 'closed' = 'starting';

  constructor(private o: PortOptions<Req, Rep>) {
    const worker = o.start();
    if (!worker) {
      this.runHere();
      return;
    }
    this.worker = worker;
    this.timer = setTimeout(() => this.state === 'starting' && this.fallBack(), o.readyTimeoutMs ?? READY_TIMEOUT_MS);
    worker.addEventListener('message', (e) => {
      const m = (e as MessageEvent).data as Rep | typeof READY;
      if (this.worker !== worker) return;
      if (isReady(m)) {
        if (this.state !== 'starting') return;
        clearTimeout(this.timer);
        this.state = 'worker';
        this.o.onReady?.('worker');
        for (const q of this.queued.splice(0)) worker.postMessage(q.req, q.transfer);
        return;
      }
      this.o.onReply(m);
    });
    const onError = (e: Event) => {
      if (this.worker !== worker) return;
      if (this.state === 'starting') return this.fallBack();
      this.close();
      this.o.onCrash((e as ErrorEvent).message || `${this.o.name} stopped unexpectedly (out of memory?)`);
    };
    worker.addEventListener('error', onError);
    worker.addEventListener('messageerror', onError);
  }

  /** Where the requests are answered: in the worker, on this thread, or not yet decided. */
  get where(): 'worker' | 'main' | 'starting' | 'closed' {
    return this.state;
  }

  /** Send a request (its buffers in `transfer` are handed to the worker, never to this thread: the page keeps them). */
  post(req: Req, transfer: Transferable[] = []): void {
    if (this.state === 'closed') throw new Error(`${this.o.name} was closed`);
    if (this.state === 'starting') this.queued.push({ req, transfer });
    else if (this.state === 'worker') this.worker!.postMessage(req, transfer);
    // A turn later, as a worker would answer: the caller has set up its waiting first.
    else setTimeout(() => this.handleHere?.(req), 0);
  }

  /** Stop the worker (what it was doing is dropped) and answer nothing more. */
  close(): void {
    clearTimeout(this.timer);
    this.state = 'closed';
    this.queued = [];
    this.handleHere = null;
    this.worker?.terminate();
    this.worker = null;
  }

  private fallBack(): void {
    clearTimeout(this.timer);
    this.worker?.terminate();
    this.worker = null;
    this.runHere();
  }

  private runHere(): void {
    this.state = 'main';
    this.handleHere = this.o.here((m) => {
      if (this.state === 'main' && !isReady(m)) this.o.onReply(m);
    });
    this.o.onReady?.('main');
    for (const q of this.queued.splice(0)) this.post(q.req);
  }
}

const isReady = (m: unknown): m is typeof READY => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'ready';
