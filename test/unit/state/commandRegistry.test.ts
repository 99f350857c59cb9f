import { describe, expect, it } from 'vitest';
import { undirectedKey } from '../../../src/core/graph.ts';
import type { Project } from '../../../src/core/project.ts';
import { suggestionBasis } from '../../../src/core/suggestionBasis.ts';
import { createWrittenItem, submitForReview } from '../../../src/core/vqa/items.ts';
import { findCommand, isEnabled, runCommand, type Command } from '../../../src/state/commands.ts';
import { replaceDocument } from '../../../src/state/history.ts';
import { selectItem } from '../../../src/features/qa/state/qaItems.ts';
import { startReview } from '../../../src/features/review/state/qaReview.ts';
import type { StudioStore } from '../../../src/state/store.ts';
import { studioCommands } from '../../support/commands.ts';
import { labellingStore, twoStoreyProject } from '../../support/labelStudio.ts';

// The studio's whole command list, from the one builder the app uses: in each state an annotator
// reaches, every command that is enabled is run, and an undoable one must add exactly one undo
// step, any other none (undo and redo move steps between the stacks; loading replaces them).

/** The two-storey house with a scan reference, two submitted QA items by Ana, and the label view open. */
function project(): Project {
  const p = twoStoreyProject();
  const scene = {
    ...p.scenes[0]!,
    mesh: { key: 'scan-1', mainFile: 'house.glb', files: [{ name: 'house.glb', bytes: 1 }], upAxis: 'y' as const, unitScale: 1 },
  };
  const item = (n: number) =>
    submitForReview(
      createWrittenItem([{ id: `qa_${n - 1}` }], { sceneId: scene.id, author: 'Ana', createdAt: 't', question: `Q${n}?`, category: { capability: 'spatial' } }),
    );
  return { ...p, scenes: [scene], qa: { ...p.qa, items: [item(1), item(2)] } };
}

/** A suggestion for every segment of the scene, as the worker's would be, for the current item to have one. */
function withSuggestions(store: StudioStore): void {
  const s = store.getState(),
    scene = s.document.project!.scenes[0]!;
  const byEdge = Object.fromEntries(
    scene.graph.edges.map((e) => [undirectedKey(e.from, e.to), { traversable: true, reason: null, note: 'Clear', measured: {}, navmeshRoute: true }]),
  );
  const agents = Object.fromEntries(s.document.project!.profiles.map((p) => [p.name, byEdge]));
  store.setState((st) => ({
    suggestions: { [scene.id]: { state: 'ready', computedAt: 1, basis: suggestionBasis(scene, st.document.project!.profiles)!, agents } },
  }));
}

const STATES: Record<string, () => StudioStore> = {
  'the scene view, a node and a question selected': () => {
    const store = labellingStore(project());
    store.setState((s) => ({
      session: { ...s.session, view: 'scene', selection: { kind: 'node', id: 'hall' }, questionIndex: 0, slice: { on: true, height: 1.6 } },
    }));
    return store;
  },
  'the label view, a reason drafted, suggestions kept': () => {
    const store = labellingStore(project());
    withSuggestions(store);
    store.setState((s) => ({ session: { ...s.session, annotator: 'Ana', labelDraft: { reason: 'narrow', note: 'Too narrow', by: 'annotator' } } }));
    return store;
  },
  'the QA view, Rita reviewing': () => {
    const store = labellingStore(project());
    store.setState((s) => ({ session: { ...s.session, view: 'qa', annotator: 'Rita' } }));
    startReview(store);
    return store;
  },
  'the QA view, Rita rejecting': () => {
    const store = STATES['the QA view, Rita reviewing']!();
    store.setState((s) => ({ qa: { ...s.qa, rejecting: true } }));
    return store;
  },
  'the QA view, Rita editing to accept': () => {
    const store = STATES['the QA view, Rita reviewing']!();
    store.setState((s) => ({ qa: { ...s.qa, editingForReview: true } }));
    return store;
  },
  'the QA view, Lee adjudicating a disagreement': () => {
    const store = labellingStore(project());
    const p = store.getState().document.project!;
    const review = (reviewer: string, verdict: 'accept' | 'reject') => ({
      reviewer,
      verdict,
      comment: '',
      timeMs: 1,
      at: 't',
      ...(verdict === 'reject' ? { reason: 'trivial' as const } : {}),
    });
    const items = p.qa.items.map((i) =>
      i.id === 'qa_1' ? { ...i, requiredReviews: 2, reviews: [review('Rita', 'accept'), review('Omar', 'reject')], status: 'adjudicate' as const } : i,
    );
    replaceDocument(store, { ...p, qa: { ...p.qa, items } });
    store.setState((s) => ({ session: { ...s.session, view: 'qa', annotator: 'Lee' }, qa: { ...s.qa, mode: 'review' } }));
    selectItem(store, 'qa_1');
    return store;
  },
  'the QA view, Lee deciding to reject a disagreement': () => {
    const store = STATES['the QA view, Lee adjudicating a disagreement']!();
    store.setState((s) => ({ qa: { ...s.qa, rejecting: true } }));
    return store;
  },
  'the QA view, Ana writing': () => {
    const store = labellingStore(project());
    store.setState((s) => ({ session: { ...s.session, view: 'qa', annotator: 'Ana' } }));
    selectItem(store, 'qa_1');
    return store;
  },
};

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the command registry', () => {
  const ids = studioCommands(labellingStore(project())).commands.map((c) => c.id);

  it('has one command per id', () => {
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('ids are a closed set: a typo does not compile (checked by `npm run checks`), and a known id is found', () => {
    const { commands } = studioCommands(labellingStore(project()));
    // @ts-expect-error — 'view.scnee' is not a command id (CommandId, src/state/commandIds.ts)
    expect(() => findCommand(commands, 'view.scnee')).toThrow('no command view.scnee');
    expect(findCommand(commands, 'view.scene').shortcut).toBe('2');
  });

  const ran = new Map<string, string[]>();
  for (const [name, make] of Object.entries(STATES)) {
    it(`in ${name}, every enabled command adds one undo step if undoable, else none`, async () => {
      const ranHere: string[] = [];
      for (const id of ids) {
        const store = make();
        const command = studioCommands(store).commands.find((c: Command) => c.id === id)!;
        if (!isEnabled(command, store.getState())) continue;
        const before = new Set(store.getState().history.past);
        runCommand(store, command);
        await settle();
        await settle();
        const added = store.getState().history.past.filter((e) => !before.has(e));
        expect(added.length, `${id} (${command.undoable ? 'undoable' : 'not undoable'}) added ${added.map((e) => e.label).join(', ') || 'no step'}`).toBe(
          command.undoable ? 1 : 0,
        );
        ranHere.push(id);
      }
      ran.set(name, ranHere);
    });
  }

  it('every undoable command was run in some state (none is left untested)', () => {
    const { commands } = studioCommands(labellingStore(project()));
    const exercised = new Set([...ran.values()].flat());
    expect(commands.filter((c) => c.undoable && !exercised.has(c.id)).map((c) => c.id)).toEqual([]);
  });
});
