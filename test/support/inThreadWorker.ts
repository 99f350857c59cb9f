import { append } from '../../src/core/arrays.ts';
import type { WorkerLike, WorkerScopeLike } from '../../src/engine/workerPort.ts';

/**
 * A worker in the same thread: messages cross by structured clone with transfer (the sender's
 * transferred buffers are detached), a turn later, as between a page and a real worker, to the
 * same body the worker file runs (`serve(self, …)`, `serveRequests(self, …)`). The real module
 * workers under Vite are exercised by the browser tests.
 */
export class InThreadWorker implements WorkerLike {
  private page = new EventTarget();
  private inside = new EventTarget();
  terminated = false;
  received: unknown[] = [];
  transferred: Transferable[] = [];

  /** `startup`: 'fails' is a worker whose script does not load (an error event, never ready). */
  constructor(body: ((scope: WorkerScopeLike) => void) | null, startup: 'ok' | 'fails' = 'ok') {
    const scope: WorkerScopeLike = {
      addEventListener: (type, listener) => this.inside.addEventListener(type, listener as EventListener),
      postMessage: (message, { transfer }) => this.deliver(this.page, structuredClone(message, { transfer })),
    };
    // Module loading is asynchronous: the body starts (or fails to) a moment later.
    setTimeout(() => {
      if (startup === 'fails') this.page.dispatchEvent(new Event('error'));
      else body?.(scope);
    }, 1);
  }

  postMessage(message: unknown, transfer: Transferable[]): void {
    const copy = structuredClone(message, { transfer });
    this.received.push(copy);
    append(this.transferred, transfer);
    this.deliver(this.inside, copy);
  }

  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: Event) => void): void {
    this.page.addEventListener(type, listener);
  }

  terminate(): void {
    this.terminated = true;
  }

  /** The worker stops as a crashed one does (an error event; nothing more is answered). */
  crash(message: string): void {
    this.page.dispatchEvent(Object.assign(new Event('error'), { message }));
    this.terminated = true;
  }

  private deliver(target: EventTarget, data: unknown) {
    setTimeout(() => {
      if (!this.terminated) target.dispatchEvent(new MessageEvent('message', { data }));
    }, 0);
  }
}
