import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildArgCommands, composeArgCommands, type ArgCommandDeps } from '../../../src/app/commandRegistry.ts';
import type { ArgCommandId, ArgCommands } from '../../../src/state/commandIds.ts';
import type { StudioStore } from '../../../src/state/store.ts';
import type { PickedFile } from '../../../src/ui/pickedFiles.ts';
import { labellingStore } from '../../support/labelStudio.ts';

// The commands with arguments (src/state/commandIds.ts ArgCommands), as the studio composes them
// (buildArgCommands, the one builder src/app/main.tsx uses), over stand-in controllers that record
// what they are asked. Each command must reach the right controller with its arguments and give
// back its answer; those that do work of their own (reading files, a download, a refusal) are run
// on a real store. Every command has a case here: a new one without a case does not compile.

type Call = unknown[];
interface World {
  store: StudioStore;
  calls: Call[];
  told: string[];
  downloads: { name: string; type: string }[];
  /** What a stand-in's method answers (default: a token naming the call). */
  answers: Record<string, unknown>;
  deps: ArgCommandDeps;
}

const token = (name: string) => ({ answeredBy: name });

function recorder(name: string, w: Pick<World, 'calls' | 'answers'>): never {
  return new Proxy(
    {},
    {
      get:
        (_t, method: string) =>
        (...args: unknown[]) => {
          w.calls.push([`${name}.${method}`, ...args]);
          const key = `${name}.${method}`;
          return Object.hasOwn(w.answers, key) ? w.answers[key] : token(key);
        },
    },
  ) as never;
}

function world(): World {
  const store = labellingStore();
  const w = { store, calls: [] as Call[], told: [] as string[], downloads: [] as World['downloads'], answers: {} as Record<string, unknown> };
  const team = recorder('team', w);
  const deps: ArgCommandDeps = {
    store,
    flush: async () => {},
    tell: (m) => void w.told.push(m),
    projects: recorder('projects', w),
    importer: recorder('importer', w),
    team: () => team,
    unsent: (id) => {
      w.calls.push(['unsent', id]);
      return Promise.resolve(3);
    },
    meshes: recorder('meshes', w),
    suggestions: recorder('suggestions', w),
    scorer: recorder('scorer', w),
    qaAnswers: recorder('qaAnswers', w),
    tasks: recorder('tasks', w),
    tour: recorder('tour', w),
    training: recorder('training', w),
    setOfMark: async () => ({ pictures: new Map(), notRendered: [] }),
  };
  return { ...w, deps };
}

const picked = (path: string, text: string): PickedFile => ({ path, file: new File([text], path.split('/').pop()!) });
const files = [picked('run/preds.jsonl', '{}\n')];
const progress = () => {};
const theirs = new Set(['scene/HOUSE']);

/** A command that only forwards: its arguments, the one call it makes, and whether it answers with the controller's answer. */
interface Forward<K extends ArgCommandId> {
  args: Parameters<ArgCommands[K]>;
  calls: Call[];
  answers?: false;
}
type Case<K extends ArgCommandId> = Forward<K> | ((run: ArgCommands[K], w: World) => Promise<void>);

const CASES: { [K in ArgCommandId]: Case<K> } = {
  'import.read': { args: [files], calls: [['importer.read', files]] },
  'import.openAsNew': { args: [], calls: [['importer.openAsNew']] },
  'import.previewMerge': { args: [], calls: [['importer.previewMerge']] },
  'import.confirmMerge': { args: [theirs], calls: [['importer.confirmMerge', theirs]] },
  'import.cancel': { args: [], calls: [['importer.cancel']] },
  'projects.open': { args: ['p1'], calls: [['projects.open', 'p1']] },
  'projects.new': { args: [], calls: [['projects.newProject']] },
  'projects.openSample': { args: [], calls: [['projects.openSample']] },
  'projects.rename': { args: ['p1', 'Flat 4'], calls: [['projects.rename', 'p1', 'Flat 4']] },
  'projects.duplicate': { args: ['p1'], calls: [['projects.duplicate', 'p1']] },
  // The team mirror goes first: a project deleted with its mirror left would be found again by the sync.
  'projects.remove': {
    args: ['p1'],
    calls: [
      ['team.forget', 'p1'],
      ['projects.remove', 'p1'],
    ],
    answers: false,
  },
  'projects.unsent': async (run, w) => {
    expect(await run('p1')).toBe(3);
    expect(w.calls).toEqual([['unsent', 'p1']]);
  },
  'team.connect': { args: ['http://127.0.0.1:5984', 'ana', 'pw'], calls: [['team.connect', 'http://127.0.0.1:5984', 'ana', 'pw']] },
  'team.join': { args: ['http://127.0.0.1:5984', 'ana', 'pw', progress], calls: [['team.join', 'http://127.0.0.1:5984', 'ana', 'pw', progress]] },
  'team.signIn': { args: ['pw'], calls: [['team.signIn', 'pw']] },
  'team.signOut': { args: [], calls: [['team.signOut']], answers: false },
  'team.disconnect': { args: [], calls: [['team.disconnect']] },
  'team.keep': { args: ['label/HOUSE/HUMAN/0', '2-b'], calls: [['team.keep', 'label/HOUSE/HUMAN/0', '2-b']] },
  'scan.attach': { args: ['HOUSE', files], calls: [['meshes.attach', 'HOUSE', files]] },
  'scan.remove': { args: ['HOUSE'], calls: [['meshes.remove', 'HOUSE']] },
  'suggestions.compute': { args: ['HOUSE'], calls: [['suggestions.compute', 'HOUSE']] },
  // Only prediction files are read, named inside the picked folder, and the folder names the run.
  'score.loadFiles': async (run, w) => {
    await run([picked('run/preds.jsonl', '{"a":1}\n'), picked('run/README.md', '# notes')]);
    expect(w.calls).toEqual([['scorer.load', [{ path: 'preds.jsonl', text: '{"a":1}\n' }], 'run', 'run']]);
  },
  'score.addBaseline': { args: ['oracle'], calls: [['scorer.addBaseline', 'oracle']] },
  'score.run': { args: [], calls: [['scorer.run']] },
  'score.cancel': { args: [], calls: [['scorer.cancel']] },
  'score.open': { args: ['gpt', 3], calls: [['scorer.open', 'gpt', 3]] },
  'score.openCompare': { args: [null], calls: [['scorer.openCompare', null]] },
  'score.exportJson': async (run, w) => {
    w.answers['scorer.reportFiles'] = Promise.resolve({ json: '{}', csv: 'a' });
    await run();
    expect(w.downloads).toEqual([{ name: 'traversa-scores.json', type: 'application/json' }]);
    w.answers['scorer.reportFiles'] = Promise.reject(new Error('the worker stopped'));
    await run();
    expect(w.told).toEqual(['Export failed: the worker stopped']);
  },
  'score.exportCsv': async (run, w) => {
    w.answers['scorer.reportFiles'] = Promise.resolve(undefined);
    await run();
    expect([w.downloads, w.told]).toEqual([[], ['Nothing to export: score first.']]);
  },
  'score.exportTable2': async (run, w) => {
    run('tex');
    expect([w.downloads, w.told]).toEqual([[], ['Nothing to export: score first.']]);
  },
  'score.referenceFiles': { args: [], calls: [['scorer.referenceFiles']] },
  'score.saveFile': async (run, w) => {
    run('chart.svg', new Uint8Array([60]), 'image/svg+xml');
    expect(w.downloads).toEqual([{ name: 'two-storeys-chart.svg', type: 'image/svg+xml' }]);
  },
  'qaAnswers.load': { args: [files], calls: [['qaAnswers.load', files]] },
  'qaAnswers.clear': { args: [], calls: [['qaAnswers.clear']] },
  'qaAnswers.exportJson': { args: [], calls: [['qaAnswers.exportJson']] },
  'qaAnswers.loadReasoningScores': { args: [files], calls: [['qaAnswers.loadReasoningScores', files]] },
  'qaAnswers.setReasoningJudge': { args: ['http'], calls: [['qaAnswers.setReasoningJudge', 'http']] },
  'qaAnswers.cancelReasoning': { args: [], calls: [['qaAnswers.cancelReasoning']] },
  // Generated items join the project as one undo step; a file with a bad record changes nothing and is reported.
  'qa.importFiles': async (run, w) => {
    const record = (question: unknown) =>
      JSON.stringify({
        sceneId: 'HOUSE',
        question,
        answer: { kind: 'yesno', correct: true },
        category: { capability: 'spatial' },
        trail: [{ text: 'The stairs lead up from it.', kind: 'spatial' }],
        generator: 'g v1',
      });
    const steps = () => w.store.getState().history.past.length;
    const before = steps();
    expect(await run([picked('gen.jsonl', `${record('Is the hall downstairs?')}\n${record(7)}`)])).toBe(false);
    expect([steps(), w.store.getState().document.project!.qa.items.length]).toEqual([before, 0]);
    expect(w.store.getState().importReport?.problems.map((p) => p.location)).toContain('line 2 /question');
    expect(await run([picked('gen.jsonl', record('Is the hall downstairs?'))])).toBe(true);
    expect([steps(), w.store.getState().document.project!.qa.items.map((i) => i.question)]).toEqual([before + 1, ['Is the hall downstairs?']]);
  },
  'qa.exportBundle': async (run, w) => {
    expect(await run()).toBe(true);
    expect(w.downloads.map((d) => d.type)).toEqual(['application/zip']);
    expect(w.told).toEqual(['Exported 0 items.']);
  },
  'qa.compareLabels': async (run, w) => {
    expect(await run([picked('other/readme.txt', 'not a release')])).toBe(false);
    expect(w.store.getState().qa.labelComparison).toBeFalsy();
    expect(w.store.getState().importReport?.accepted).toBe(false);
  },
  'qa.importTaxonomy': async (run, w) => {
    const steps = () => w.store.getState().history.past.length;
    const before = steps();
    expect(await run(picked('taxonomy.json', '{"capabilities": []}'))).toBe(false);
    expect(steps()).toBe(before);
    const own = { capabilities: [{ id: 'nav', name: 'Navigation', subcategories: [] }], taskTypes: [] };
    expect(await run(picked('taxonomy.json', JSON.stringify(own)))).toBe(true);
    expect([steps(), w.store.getState().document.project!.qa.taxonomy.capabilities.map((c) => c.id)]).toEqual([before + 1, ['nav']]);
  },
  'tasks.generate': { args: [], calls: [['tasks.run']] },
  'tasks.cancel': { args: [], calls: [['tasks.cancel']] },
  'tasks.videoInfo': { args: ['HOUSE'], calls: [['tasks.videoInfo', 'HOUSE']] },
  // The stored video with its length in seconds (frames ÷ fps), or null when the scene has none.
  'tasks.videoFile': async (run, w) => {
    const blob = new Blob(['v']);
    w.answers['tasks.sceneVideo'] = Promise.resolve({ blob, poses: { fps: 2, frames: new Array(9) } });
    expect(await run('HOUSE')).toEqual({ blob, seconds: 4.5 });
    w.answers['tasks.sceneVideo'] = Promise.resolve(undefined);
    expect(await run('HOUSE')).toBeNull();
  },
  'tour.load': { args: ['HOUSE'], calls: [['tour.load', 'HOUSE']] },
  'tour.download': { args: ['HOUSE', 'frames'], calls: [['tour.download', 'HOUSE', 'frames']], answers: false },
  // The Training view's run and downloads (their work on a real store: test/unit/features/training/trainingTasks.test.ts).
  'training.generate': { args: [], calls: [['training.generate']] },
  'training.cancel': { args: [], calls: [['training.cancel']] },
  'training.downloadTasks': { args: [], calls: [['training.downloadTasks']] },
  'training.downloadSplit': { args: [], calls: [['training.downloadSplit']] },
};

describe('the commands with arguments', () => {
  let w: World;
  beforeEach(() => {
    w = world();
    // A download as the studio makes one (an anchor clicked), recorded.
    vi.stubGlobal('document', {
      createElement: () => ({ click() {}, remove() {} }),
      body: {
        append: (a: { download: string; href: string }) => w.downloads.push({ name: a.download, type: downloadedTypes.get(a.href) ?? '' }),
      },
    });
    const make = URL.createObjectURL.bind(URL);
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b: Blob | MediaSource) => {
      const url = make(b);
      downloadedTypes.set(url, b instanceof Blob ? b.type : '');
      return url;
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  const downloadedTypes = new Map<string, string>();

  it('the studio supplies every declared one, and has a case here for each', () => {
    expect(Object.keys(buildArgCommands(world().deps)).sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const [id, c] of Object.entries(CASES) as [ArgCommandId, Case<ArgCommandId>][]) {
    it(`${id} ${typeof c === 'function' ? 'does its work' : `reaches ${c.calls.map((x) => x[0]).join(' then ')}`}`, async () => {
      const run = buildArgCommands(w.deps)[id] as (...a: unknown[]) => unknown;
      if (typeof c === 'function') return (c as (run: unknown, w: World) => Promise<void>)(run, w);
      const answer = await run(...c.args);
      expect(w.calls).toEqual(c.calls);
      if (c.answers !== false) expect(answer).toEqual(token(c.calls[0]![0] as string));
    });
  }

  it('before storage has opened, the team commands answer that the studio is still opening', async () => {
    const run = buildArgCommands({ ...w.deps, team: () => null });
    expect(await run['team.connect']('http://127.0.0.1:5984', 'ana', 'pw')).toBe('The studio is still opening; try again in a moment.');
    expect(await run['team.keep']('k', '1-a')).toBe('The studio is still opening; try again in a moment.');
  });

  it('an id supplied by two features is refused (a spread would silently keep the second)', () => {
    expect(() => composeArgCommands({ 'score.run': async () => {} }, { 'score.run': async () => {} })).toThrow('two features supply the command score.run');
  });
});
