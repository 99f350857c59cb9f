import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree } from '../../../src/cli/files.ts';
import { DEFAULT_PAPER_SETTINGS, type ScoringRequest } from '../../../src/core/scoring/pipeline.ts';
import { type LoadedMesh } from '../../../src/engine/mesh/load.ts';
import { createSceneService } from '../../../src/engine/suggest/sceneService.ts';
import { serve, WorkerPort, type WorkerLike } from '../../../src/engine/workerPort.ts';
import { SuggestionRunner } from '../../../src/features/suggestions/app/suggestions.ts';
import { LocalScoring, WorkerScoring } from '../../../src/features/scoring/app/scoreClient.ts';
import type { MeshManager } from '../../../src/services/meshManager.ts';
import { TraversaDb } from '../../../src/persistence/db.ts';
import { createStudioStore } from '../../../src/state/store.ts';
import { scoreService } from '../../../src/workers/scoreHandler.ts';
import { InThreadWorker } from '../../support/inThreadWorker.ts';
import { REPO } from '../../support/cli.ts';
import { scoringHouse } from '../../support/scoreSupport.ts';
import { loadSampleHouse, sampleRelease } from '../../support/suggestTruth.ts';
import 'fake-indexeddb/auto';

// Issue 26 §6: every worker goes through one client (engine/workerPort.ts) with the ready
// handshake, the time-outs, cancellation and the main-thread fallback; each worker's answers
// through it equal the same service's answers on this thread. (The mesh workers' equality is held
// by test/unit/engine/mesh/meshWorkers.test.ts over the same InThreadWorker.)

type Echo = { n: number; buf?: ArrayBuffer };
const echo = (reply: (m: Echo) => void) => (req: Echo) => reply({ n: req.n * 2 });

function portOver(worker: WorkerLike | null, readyTimeoutMs = 1000) {
  const got: Echo[] = [];
  const crashes: string[] = [];
  const port = new WorkerPort<Echo, Echo>({
    name: 'the echo worker',
    start: () => worker,
    here: echo,
    readyTimeoutMs,
    onReply: (m) => got.push(m),
    onCrash: (r) => crashes.push(r),
  });
  return { port, got, crashes };
}
const turns = (ms = 20) => new Promise((r) => setTimeout(r, ms));
/** Turns of the event loop until `done` holds (at most `limitMs`): a loaded machine may need more than one. */
async function until(done: () => boolean, limitMs = 5000) {
  for (const t0 = Date.now(); !done() && Date.now() - t0 < limitMs;) await turns(10);
}

describe('the worker port', () => {
  it('holds requests until the worker is ready, then sends them in order and hands their buffers over', async () => {
    const w = new InThreadWorker((scope) => serve(scope, echo));
    const { port, got } = portOver(w);
    const buf = new ArrayBuffer(8);
    port.post({ n: 1, buf }, [buf]);
    port.post({ n: 2 });
    expect([port.where, w.received]).toEqual(['starting', []]);
    await until(() => got.length >= 2);
    expect([port.where, got]).toEqual(['worker', [{ n: 2 }, { n: 4 }]]);
    expect(buf.byteLength).toBe(0); // transferred to the worker
  });

  it('a worker that never says it is ready is stopped after the time-out; the page answers what it was sent, nothing having been handed over', async () => {
    const w = new InThreadWorker(null);
    const { port, got } = portOver(w, 30);
    const buf = new ArrayBuffer(8);
    port.post({ n: 3, buf }, [buf]);
    await turns(80);
    expect([port.where, got, w.terminated, w.received, buf.byteLength]).toEqual(['main', [{ n: 6 }], true, [], 8]);
  });

  it('a worker that fails to load leaves the work to the page at once; where none can start, the page does it', async () => {
    const failing = portOver(new InThreadWorker(null, 'fails'));
    failing.port.post({ n: 5 });
    const none = portOver(null);
    none.port.post({ n: 7 });
    await until(() => failing.got.length + none.got.length >= 2);
    expect([failing.port.where, failing.got, none.port.where, none.got]).toEqual(['main', [{ n: 10 }], 'main', [{ n: 14 }]]);
  });

  it('a worker that stops after it was ready is reported once with the reason, and the port answers nothing more', async () => {
    const w = new InThreadWorker((scope) => serve(scope, () => () => {}));
    const { port, got, crashes } = portOver(w);
    port.post({ n: 1 });
    await turns();
    w.crash('out of memory');
    expect([crashes, port.where, got]).toEqual([['out of memory'], 'closed', []]);
    expect(() => port.post({ n: 2 })).toThrow('the echo worker was closed');
  });

  it('closing stops the worker and drops what was queued', async () => {
    const w = new InThreadWorker((scope) => serve(scope, echo));
    const { port, got } = portOver(w);
    port.post({ n: 1 });
    port.close();
    await turns();
    expect([w.terminated, got]).toEqual([true, []]);
  });
});

describe('each worker answers as the page does', () => {
  const RESULTS = join(REPO, 'test/fixtures/scoring/results');
  const request = (): ScoringRequest => ({
    mode: 'paper',
    project: scoringHouse(),
    input: { root: 'results', files: readTree(RESULTS, ['.json', '.jsonl', '.txt'], 'predictions') },
    settings: { ...DEFAULT_PAPER_SETTINGS, bootstrap: { resamples: 200, seed: 1, level: 0.95 } },
  });
  const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

  it('the scoring worker: the same reports, records and downloads as scoring on the page', async () => {
    const here = new LocalScoring();
    const want = await here.score(request(), () => {});
    for (const startWorker of [() => new InThreadWorker((scope) => serve(scope, scoreService)), () => null]) {
      const worker = new WorkerScoring({ startWorker });
      expect(plain(await worker.score(request(), () => {}))).toEqual(plain(want));
      expect(await worker.record('model-b', 0)).toEqual(await here.record('model-b', 0));
      expect(await worker.files()).toEqual(await here.files());
      worker.dispose();
    }
  });

  it('the scoring worker, stopped mid-run, fails the run with the reason; a record it does not answer in time fails with the time it had', async () => {
    let w: InThreadWorker | null = null;
    const worker = new WorkerScoring({
      startWorker: () => (w = new InThreadWorker((scope) => serve(scope, () => () => {}))),
      answerTimeoutMs: 30,
    });
    const asked = worker.record('m', 0);
    await expect(asked).rejects.toThrow('the scoring worker did not answer within 0 s');
    const running = worker.score(request(), () => {});
    w!.crash('out of memory');
    await expect(running).rejects.toThrow('the scoring worker failed: out of memory');
  });

  describe('the scene worker', () => {
    let loaded: LoadedMesh;
    beforeAll(async () => {
      loaded = await loadSampleHouse();
    });
    afterAll(() => loaded.dispose());

    it('drives the stairs as the page does (the scan crossing once, by structured clone)', async () => {
      const release = sampleRelease();
      const node = (name: string) => release.graph.nodes.find((n) => n.name === name)!.position;
      const agent = (name: string) => release.profiles.find((p) => p.name === name)!;
      const runner = (startWorker: () => WorkerLike | null) =>
        new SuggestionRunner(createStudioStore(), {} as MeshManager, new TraversaDb(`traversa-port-${Math.random()}`), { startWorker });
      const made: InThreadWorker[] = [];
      const inWorker = runner(() => {
        const w = new InThreadWorker((scope) => serve(scope, createSceneService));
        made.push(w);
        return w;
      });
      const onPage = runner(() => null);
      for (const a of ['HUMAN', 'WHEELCHAIR']) {
        const [got, want] = [
          await inWorker.drive(loaded, agent(a), node('Stair foot'), node('Landing')),
          await onPage.drive(loaded, agent(a), node('Stair foot'), node('Landing')),
        ];
        // Everything but how long each took.
        const decided = (d: typeof got) => plain({ ...d, stats: { ...d.stats, confirmMs: 0, searchMs: 0, terrainMs: 0, totalMs: 0, diagnoseMs: 0 } });
        expect(decided(got)).toEqual(decided(want));
      }
      expect([inWorker.runsIn, onPage.runsIn, made.length]).toEqual(['worker', 'main', 1]);
      expect(made[0]!.received.filter((m) => (m as { geometry?: unknown }).geometry !== undefined)).toHaveLength(1);
    }, 120_000);
  });
});
