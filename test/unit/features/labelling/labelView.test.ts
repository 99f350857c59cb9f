import { studioCommands } from '../../../support/commands.ts';
import { describe, expect, it } from 'vitest';
import { existingLabel, itemKey } from '../../../../src/core/queue.ts';
import { labelItem } from '../../../../src/features/labelling/state/labelCommands.ts';
import { moveCursor, toggleDraftReason } from '../../../../src/features/labelling/state/queueCommands.ts';
import { currentItem, sceneQueue } from '../../../../src/features/labelling/state/queueSelectors.ts';
import { viewSlice } from '../../../../src/state/slice.ts';
import type { StudioStore } from '../../../../src/state/store.ts';
import { drive, labellingStore, press } from '../../../support/labelStudio.ts';

const item = (store: StudioStore) => currentItem(store.getState())!;
const describeItem = (store: StudioStore) => {
  const i = item(store);
  return `#${i.questionIndex} ${i.agent} ${i.from}→${i.to}`;
};
const scene = (store: StudioStore) => store.getState().document.project!.scenes[0]!;
/** What belongs to the item: the drive, the draft and the notice. */
const itemState = (store: StudioStore) => {
  const s = store.getState();
  return { drive: s.ephemeral.drive, draft: s.session.labelDraft, notice: s.ephemeral.notice };
};
const nothingLeft = { drive: null, draft: { reason: null, note: '' }, notice: null };
const yes = { traversable: true, reason: null, note: '' };

/** The queue index of the first item matching. */
const at = (store: StudioStore, q: number, agent: string, from: string) =>
  sceneQueue(store.getState()).findIndex((i) => i.questionIndex === q && i.agent === agent && i.from === from);

describe('drive readouts, footprint, draft and notices belong to the current queue item', () => {
  const moves: [string, string, (store: StudioStore) => void][] = [
    ['.', 'the next segment', () => {}],
    [',', 'the previous segment', (st) => moveCursor(st, 3)],
    ['Home', 'the first segment', (st) => moveCursor(st, 3)],
    ['U', 'the next unlabelled segment', (st) => labelItem(st, 'HOUSE', 'q', item(st), yes)],
    [']', 'the next question', () => {}],
    ['[', 'the previous question', (st) => moveCursor(st, at(st, 1, 'WHEELCHAIR', 'hall'))],
    ['A', 'the next agent', () => {}],
  ];
  it.each(moves)('pressing %s (%s) leaves the drive, its draft and its notice behind', (key, _, setup) => {
    const store = labellingStore();
    setup(store);
    drive(store);
    const before = describeItem(store);
    expect(press(store, key)).toBeDefined();
    expect(describeItem(store)).not.toBe(before);
    expect(itemState(store)).toEqual(nothingLeft);
  });

  it('keys that do not move the queue keep them: previous at the first segment, a reason key, opening the label view again', () => {
    const store = labellingStore();
    drive(store);
    const driven = store.getState().ephemeral.drive;
    press(store, ',');
    press(store, '3');
    expect(store.getState().ephemeral.drive).toBe(driven);
    press(store, 'S'); // the annotator overrides the drive's reason: stairs
    expect(itemState(store)).toMatchObject({ drive: driven, draft: { reason: 'stairs', by: 'annotator' } });
  });

  it('a decision records the drive as evidence and advances the queue; what is shown then is the decision, not the drive', async () => {
    const store = labellingStore();
    const { commands } = studioCommands(store);
    moveCursor(store, at(store, 0, 'WHEELCHAIR', 'hall'));
    const decided = item(store);
    drive(store);
    expect(press(store, 'X', {}, commands)).toBe('label.blocked');
    await expect.poll(() => store.getState().ephemeral.notice).toMatch(/^Saved: WHEELCHAIR hall → kitchen not traversable/);
    const label = existingLabel(scene(store), decided)!;
    expect(label).toMatchObject({
      traversable: false,
      reason: 'narrow',
      evidence: {
        trajectory: [
          [0, 0, 0],
          [1, 0, 0],
        ],
      },
    });
    expect(itemKey(item(store))).not.toBe(itemKey(decided));
    expect(store.getState().ephemeral.drive).toBeNull();
    expect(store.getState().session.labelDraft).toEqual({ reason: null, note: '' });
  });

  it('undo leaves the drive and its notice behind, and the draft the drive proposed; the label goes back, and the notice says which', () => {
    const store = labellingStore();
    const it0 = item(store);
    labelItem(store, 'HOUSE', 'q', it0, yes);
    drive(store);
    expect(press(store, 'z', { ctrl: true })).toBe('edit.undo');
    expect(existingLabel(scene(store), item(store))).toBeUndefined();
    expect(itemState(store)).toEqual({ ...nothingLeft, notice: `Undone: Label traversable: ${it0.agent} ${it0.from} → ${it0.to}.` });
  });

  it('undo and redo keep a draft the annotator wrote (only the drive goes)', () => {
    const store = labellingStore();
    labelItem(store, 'HOUSE', 'q', item(store), yes);
    drive(store);
    toggleDraftReason(store, 'door');
    press(store, 'z', { ctrl: true });
    expect(itemState(store)).toMatchObject({
      drive: null,
      notice: expect.stringMatching(/^Undone: Label traversable: /) as unknown as string,
      draft: { reason: 'door', by: 'annotator' },
    });
    drive(store);
    press(store, 'z', { ctrl: true, shift: true });
    expect(itemState(store)).toEqual({ ...nothingLeft, notice: expect.stringMatching(/^Redone: Label traversable: /) as unknown as string }); // this draft was the drive's again
    expect(existingLabel(scene(store), item(store))?.traversable).toBe(true);
  });

  it('redo leaves the drive behind too', () => {
    const store = labellingStore();
    labelItem(store, 'HOUSE', 'q', item(store), yes);
    press(store, 'z', { ctrl: true });
    drive(store);
    expect(press(store, 'y', { ctrl: true })).toBe('edit.redoY');
    expect(itemState(store)).toEqual({ ...nothingLeft, notice: expect.stringMatching(/^Redone: Label traversable: /) as unknown as string });
  });
});

describe('Ctrl+Y redoes', () => {
  it('as Ctrl+Shift+Z does: the undone label comes back, once', () => {
    const store = labellingStore();
    const first = item(store);
    labelItem(store, 'HOUSE', 'q', first, yes);
    press(store, 'z', { ctrl: true });
    expect(existingLabel(scene(store), first)).toBeUndefined();
    expect(press(store, 'y', { ctrl: true })).toBe('edit.redoY');
    expect(existingLabel(scene(store), first)?.traversable).toBe(true);
    expect(store.getState().history).toMatchObject({ past: [{ label: `Label traversable: ${first.agent} ${first.from} → ${first.to}` }], future: [] });
    // Nothing left to redo: the key does nothing (and does not label the segment either).
    const { commands } = studioCommands(store);
    expect(press(store, 'y', { ctrl: true }, commands)).toBeUndefined();
    expect(store.getState().history.past).toHaveLength(1);
  });

  it('plain Y still labels the segment in the label view', () => {
    const store = labellingStore();
    const { commands } = studioCommands(store);
    expect(press(store, 'y', {}, commands)).toBe('label.traversable');
  });
});

describe('moving through the queue by question and by agent in the label view', () => {
  it('] goes to the next question for the same agent, [ back, and the label view stays open', () => {
    const store = labellingStore();
    moveCursor(store, at(store, 0, 'WHEELCHAIR', 'hall'));
    expect(press(store, ']')).toBe('queue.nextQuestion');
    expect(store.getState().session.view).toBe('label');
    expect(describeItem(store)).toBe('#1 WHEELCHAIR hall→foot');
    expect(store.getState().session.questionIndex).toBe(1);
    press(store, ']');
    expect(describeItem(store)).toBe('#2 WHEELCHAIR landing→bedroom');
    // The last question: the queue stays and says so.
    press(store, ']');
    expect(describeItem(store)).toBe('#2 WHEELCHAIR landing→bedroom');
    expect(store.getState().ephemeral.notice).toMatch(/last question/);
    expect(press(store, '[')).toBe('queue.previousQuestion');
    expect(describeItem(store)).toBe('#1 WHEELCHAIR hall→foot');
    expect(store.getState().session.view).toBe('label');
  });

  it('A switches the queue to the next agent on the same segment of the same question, and wraps', () => {
    const store = labellingStore();
    moveCursor(store, at(store, 1, 'HUMAN', 'foot'));
    const seen = [describeItem(store)];
    for (let k = 0; k < 5; k++) {
      expect(press(store, 'A')).toBe('queue.nextAgent');
      seen.push(describeItem(store));
    }
    expect(seen).toEqual(['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER', 'HUMAN'].map((a) => `#1 ${a} foot→landing`));
    expect(store.getState().session.agent).toBe('HUMAN');
  });

  it('in the scene view the same keys keep their meaning there: ] the question list, A the edge colours; the queue does not move', () => {
    const store = labellingStore();
    const cursor = store.getState().session.queueCursor;
    store.setState((s) => ({ session: { ...s.session, view: 'scene', questionIndex: 0 } }));
    expect(press(store, ']')).toBe('question.next');
    expect(press(store, 'A')).toBe('agent.next');
    expect(store.getState().session).toMatchObject({ view: 'scene', questionIndex: 1, agent: 'WHEELCHAIR', queueCursor: cursor });
  });
});

describe('the shortcuts list is in front of the app', () => {
  it('while it is open, keys that would act do nothing; ? or Escape close it, and then they act again', () => {
    const store = labellingStore();
    const { commands } = studioCommands(store);
    expect(press(store, '?', { shift: true }, commands)).toBe('help.toggle');
    expect(store.getState().ephemeral.helpOpen).toBe(true);
    const before = store.getState();
    for (const [key, mods] of [
      ['y', {}],
      [']', {}],
      ['A', {}],
      ['.', {}],
      ['H', {}],
      ['3', {}],
      ['2', {}],
      ['L', {}],
      ['z', { ctrl: true }],
      ['Enter', {}],
      ['g', {}],
    ] as const) {
      expect(press(store, key, mods, commands), key).toBeUndefined();
    }
    expect(store.getState().document).toBe(before.document);
    expect(store.getState().session).toBe(before.session);
    expect(press(store, 'Escape', {}, commands)).toBe('help.close');
    expect(store.getState().ephemeral.helpOpen).toBe(false);
    expect(press(store, ']', {}, commands)).toBe('queue.nextQuestion');
    press(store, '?', { shift: true }, commands);
    expect(press(store, '?', { shift: true }, commands)).toBe('help.toggle');
    expect(store.getState().ephemeral.helpOpen).toBe(false);
  });
});

describe('the label view slices the 3D view at the current segment’s floor', () => {
  it('a ground-floor segment: sliced above the ground floor, nothing hidden below', () => {
    const store = labellingStore();
    expect(describeItem(store)).toBe('#0 HUMAN hall→kitchen');
    expect(viewSlice(store.getState())).toEqual({ on: true, height: 1.6, below: null });
  });

  it('an upper-floor segment: sliced above the upper floor, and the ground floor (with its names) hidden below', () => {
    const store = labellingStore();
    moveCursor(store, at(store, 2, 'HUMAN', 'landing'));
    expect(viewSlice(store.getState())).toEqual({ on: true, height: 4.6, below: 2.5 });
  });

  it('a stair segment shows both floors it joins, sliced at the higher one', () => {
    const store = labellingStore();
    moveCursor(store, at(store, 1, 'HUMAN', 'foot'));
    expect(describeItem(store)).toBe('#1 HUMAN foot→landing');
    expect(viewSlice(store.getState())).toEqual({ on: true, height: 4.6, below: null });
  });

  it('uses the floors detected in the scan when it is loaded', () => {
    const store = labellingStore();
    store.setState({ meshes: { HOUSE: { state: 'ready', triangles: 1, floors: [0, 2.8], warnings: [] } } });
    moveCursor(store, at(store, 2, 'SWEEPER', 'landing'));
    const slice = viewSlice(store.getState());
    expect(slice.height).toBeCloseTo(4.4);
    expect(slice.below).toBeCloseTo(2.3);
  });

  it('a slice set by hand stays until the queue moves, then the segment’s floor is followed again', () => {
    const store = labellingStore();
    moveCursor(store, at(store, 2, 'HUMAN', 'landing'));
    expect(press(store, 'PageDown')).toBe('slice.down');
    expect(viewSlice(store.getState())).toEqual({ on: true, height: 1.6, below: null });
    press(store, 'S');
    expect(viewSlice(store.getState()).height).toBe(1.6);
    press(store, '.');
    expect(describeItem(store)).toBe('#2 WHEELCHAIR landing→bedroom');
    expect(viewSlice(store.getState())).toEqual({ on: true, height: 4.6, below: 2.5 });
  });

  it('the scene view keeps its own slice', () => {
    const store = labellingStore();
    moveCursor(store, at(store, 2, 'HUMAN', 'landing'));
    press(store, '2');
    expect(viewSlice(store.getState())).toEqual({ on: false, height: 2, below: null });
  });
});

describe('J / K in the label view', () => {
  it("go to the next or previous scene's queue and stay in the label view", () => {
    const base = labellingStore().getState().document.project!;
    const second = { ...base.scenes[0]!, id: 'HOUSE2' };
    const store = labellingStore({ ...base, scenes: [base.scenes[0]!, second] });
    moveCursor(store, 3);
    expect(press(store, 'j')).toBe('scene.next');
    expect(store.getState().session).toMatchObject({ view: 'label', sceneId: 'HOUSE2', queueCursor: 0 });
    expect(press(store, 'k')).toBe('scene.previous');
    expect(store.getState().session).toMatchObject({ view: 'label', sceneId: base.scenes[0]!.id, queueCursor: 0 });
  });
});
