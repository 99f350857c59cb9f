import { describe, expect, it } from 'vitest';
import { labelDecision } from '../../../src/core/labelDecision.ts';
import { createWrittenItem, submitForReview } from '../../../src/core/vqa/items.ts';
import { findCommand, runCommand } from '../../../src/state/commands.ts';
import { startReview } from '../../../src/features/review/state/qaReview.ts';
import type { StudioStore } from '../../../src/state/store.ts';
import { studioCommands } from '../../support/commands.ts';
import { labellingStore, twoStoreyProject } from '../../support/labelStudio.ts';

// A label or a verdict is stored before the queue moves on: when the write fails, the queue stays
// on the item and says why; when it succeeds, the queue moves.

const failingWrite = (store: StudioStore) => async () => {
  store.setState({ storage: { status: 'error', message: 'quota exceeded' } });
};
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('a decision whose write fails keeps the queue in place', () => {
  it('a label: the queue stays on the segment and says the label was not saved; with a working write it moves on', async () => {
    const store = labellingStore();
    const { commands, told } = studioCommands(store, { flush: failingWrite(store) });
    const at = store.getState().session.queueCursor;
    runCommand(store, findCommand(commands, 'label.traversable'));
    await settle();
    expect(store.getState().session.queueCursor).toBe(at);
    expect(told.at(-1)).toBe('The label could not be saved; the queue stays here. See the message at the top.');

    const ok = labellingStore();
    runCommand(ok, findCommand(studioCommands(ok).commands, 'label.traversable'));
    await settle();
    expect(ok.getState().session.queueCursor).not.toBe(at);
  });

  it('a label needs the annotator’s name first: nothing is recorded and the queue stays until there is one', async () => {
    const store = labellingStore(twoStoreyProject(), '  ');
    const { commands, told } = studioCommands(store);
    const at = store.getState().session.queueCursor;
    const before = store.getState().document.project;
    runCommand(store, findCommand(commands, 'label.traversable'));
    await settle();
    expect(told.at(-1)).toMatch(/^Give your name first/);
    expect(store.getState().document.project).toBe(before);
    expect(store.getState().session.queueCursor).toBe(at);

    store.setState((s) => ({ session: { ...s.session, annotator: 'Rita' } }));
    runCommand(store, findCommand(commands, 'label.traversable'));
    await settle();
    expect(store.getState().session.queueCursor).not.toBe(at);
    expect(JSON.stringify(store.getState().document.project!.scenes[0]!.votes)).toContain('"Rita"');
  });

  it('a review verdict: the item stays open and the reviewer is told it was not saved', async () => {
    const p = twoStoreyProject();
    const item = (n: number) =>
      submitForReview(
        createWrittenItem([{ id: `qa_${n - 1}` }], {
          sceneId: p.scenes[0]!.id,
          author: 'Ana',
          createdAt: 't',
          question: `Q${n}?`,
          category: { capability: 'spatial' },
        }),
      );
    const store = labellingStore({ ...p, qa: { ...p.qa, items: [item(1), item(2)] } });
    store.setState((s) => ({ session: { ...s.session, view: 'qa', annotator: 'Rita' } }));
    startReview(store);
    const { commands, told } = studioCommands(store, { flush: failingWrite(store) });
    runCommand(store, findCommand(commands, 'qa.accept'));
    await settle();
    expect(store.getState().qa.itemId).toBe('qa_1');
    expect(told.at(-1)).toBe('The verdict could not be saved; the queue stays here. See the message at the top.');
  });
});

describe('what a label decision records', () => {
  const sug = {
    traversable: false,
    reason: 'stairs' as const,
    note: 'Stairs: cannot go up or down stairs',
    measured: { risers: 16, cornerWidthsM: [0.8, 0.8] },
  };
  const none = { reason: null, note: '' };

  it('Enter takes the suggestion, its words and what it measured', () => {
    expect(labelDecision({ pressed: 'suggestion', draft: none, suggestion: sug })).toEqual({
      decision: {
        traversable: false,
        reason: 'stairs',
        note: 'Stairs: cannot go up or down stairs',
        evidence: { suggestion: { traversable: false, reason: 'stairs', note: 'Stairs: cannot go up or down stairs' }, measured: { risers: 16 } },
      },
    });
  });

  it('X with nothing said is refused; with a reason key it notes the reason’s name', () => {
    expect(labelDecision({ pressed: false, draft: none })).toEqual({ missing: 'Say why it is not traversable: a reason key (S P W R D E Q) or a note (/).' });
    expect(labelDecision({ pressed: false, draft: { reason: 'narrow', note: '' } })).toEqual({
      decision: { traversable: false, reason: 'narrow', note: 'Narrow passage' },
    });
  });

  it('deciding against the suggestion keeps the annotator’s words, not the suggestion’s', () => {
    const d = labelDecision({ pressed: true, draft: none, suggestion: sug });
    expect(d).toMatchObject({ decision: { traversable: true, reason: null, note: '' } });
  });

  it('a drive that stopped is evidence: its figures prefixed drive., its trajectory, where it stopped', () => {
    const drive = {
      reached: false,
      measured: { clearWidthM: 0.7 },
      trajectory: [
        [0, 0, 0],
        [1, 0, 0],
      ] as [number, number, number][],
      stop: { kind: 'narrow', message: 'Narrow passage: clear width 0.70 m < 0.74 m needed', point: [1, 0, 0] as [number, number, number] },
    };
    expect(labelDecision({ pressed: false, draft: { reason: 'narrow', note: drive.stop.message }, drive })).toEqual({
      decision: {
        traversable: false,
        reason: 'narrow',
        note: drive.stop.message,
        evidence: { measured: { 'drive.clearWidthM': 0.7 }, trajectory: drive.trajectory, contact: drive.stop },
      },
    });
  });
});
