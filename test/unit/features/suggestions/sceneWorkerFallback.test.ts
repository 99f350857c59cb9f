import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeshManager } from '../../../../src/services/meshManager.ts';
import { SuggestionRunner } from '../../../../src/features/suggestions/app/suggestions.ts';
import type { WorkerLike } from '../../../../src/engine/mesh/workerClient.ts';
import { type LoadedMesh } from '../../../../src/engine/mesh/load.ts';
import { ScenePlanner } from '../../../../src/engine/planner/scene.ts';
import { prepareGeometry } from '../../../../src/engine/suggest/index.ts';
import type { SuggestRequest } from '../../../../src/engine/suggest/workerMessages.ts';
import { TraversaDb } from '../../../../src/persistence/db.ts';
import { createStudioStore } from '../../../../src/state/store.ts';
import { loadSampleHouse, sampleRelease } from '../../../support/suggestTruth.ts';

// Issue 26 (and the house guide, rule 8): the scene worker — suggestions and the drive's planner —
// had no time-out and no main-thread fallback. A worker that cannot be made, fails to load or never
// says it is ready now leaves the work to the page, which gives the same answers; one that stops
// mid-work fails its requests with the reason, and the next request starts another.

const release = sampleRelease();
const node = (name: string) => release.graph.nodes.find((n) => n.name === name)!.position;
const agent = (name: string) => release.profiles.find((p) => p.name === name)!;
let loaded: LoadedMesh;
let n = 0;

beforeAll(async () => {
  loaded = await loadSampleHouse();
});
afterAll(() => loaded.dispose());

/** A worker that says nothing until told to: what it was sent, whether it was stopped. */
class SilentWorker implements WorkerLike {
  sent: SuggestRequest[] = [];
  terminated = false;
  private listeners = new Map<string, ((e: Event) => void)[]>();
  postMessage(message: unknown): void {
    this.sent.push(message as SuggestRequest);
  }
  addEventListener(type: string, listener: (e: Event) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  terminate(): void {
    this.terminated = true;
  }
  emit(type: 'message' | 'error', data: unknown): void {
    for (const l of this.listeners.get(type) ?? []) l(type === 'message' ? ({ data } as MessageEvent) : ({ message: String(data) } as ErrorEvent));
  }
}

const runnerWith = (startWorker: () => WorkerLike | null, readyTimeoutMs = 15_000) =>
  new SuggestionRunner(createStudioStore(), {} as MeshManager, new TraversaDb(`traversa-fallback-${n++}`), { startWorker, readyTimeoutMs });

describe('the scene worker, when it cannot do the work', () => {
  it('no worker can start: the page drives the stairs itself, with the answers the planner gives', async () => {
    const planner = await ScenePlanner.create(prepareGeometry(loaded));
    const want = (a: string) => planner.decide(agent(a), node('Stair foot'), node('Landing'));
    const runner = runnerWith(() => null);
    for (const a of ['HUMAN', 'WHEELCHAIR']) {
      const got = await runner.drive(loaded, agent(a), node('Stair foot'), node('Landing'));
      expect({ reached: got.reached, reason: got.reason, note: got.note }).toEqual({ reached: want(a).reached, reason: want(a).reason, note: want(a).note });
    }
    expect(runner.runsIn).toBe('main');
    planner.dispose();
  }, 60_000);

  it('a worker that never says it is ready is stopped after the time-out, and the drive it was sent is answered by the page', async () => {
    const worker = new SilentWorker();
    const runner = runnerWith(() => worker, 50);
    const got = await runner.drive(loaded, agent('WHEELCHAIR'), node('Stair foot'), node('Landing'));
    expect(got).toMatchObject({ reached: false, reason: 'stairs' });
    // Nothing was handed to it: the scan it would have taken over is still the page's.
    expect(worker.sent).toEqual([]);
    expect(worker.terminated).toBe(true);
    expect(runner.runsIn).toBe('main');
  }, 60_000);

  it('a worker that fails to load (an error before ready) leaves the work to the page at once', async () => {
    const worker = new SilentWorker();
    const runner = runnerWith(() => worker);
    const driving = runner.drive(loaded, agent('HUMAN'), node('Stair foot'), node('Landing'));
    worker.emit('error', 'Failed to fetch the worker script');
    expect(await driving).toMatchObject({ reached: true });
    expect(worker.terminated).toBe(true);
  }, 60_000);

  it('a worker that stops mid-work fails its request with the reason; the next request starts another worker', async () => {
    const workers: SilentWorker[] = [];
    const runner = runnerWith(() => {
      const w = new SilentWorker();
      workers.push(w);
      return w;
    });
    const driving = runner.drive(loaded, agent('HUMAN'), node('Stair foot'), node('Landing'));
    workers[0]!.emit('message', { type: 'ready' });
    workers[0]!.emit('error', 'out of memory');
    await expect(driving).rejects.toThrow('out of memory');
    void runner.drive(loaded, agent('HUMAN'), node('Stair foot'), node('Landing')).catch(() => {});
    expect(workers).toHaveLength(2);
    expect(workers[0]!.terminated).toBe(true);
    expect(workers[1]!.sent).toEqual([]);
    workers[1]!.emit('message', { type: 'ready' });
    expect(workers[1]!.sent.map((m) => [m.type, 'geometry' in m && m.geometry !== undefined])).toEqual([['drive', true]]);
  }, 60_000);
});
