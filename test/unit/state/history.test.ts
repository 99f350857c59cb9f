import { describe, expect, it } from 'vitest';
import { emptyProject, type Project } from '../../../src/core/project.ts';
import { findCommand, PROJECT_EDITS, runCommand } from '../../../src/state/commands.ts';
import { applyEdit } from '../../../src/state/edits.ts';
import { diffProjects } from '../../../src/core/records/records.ts';
import type { CommandId } from '../../../src/state/commandIds.ts';
import { stateCommands } from '../../../src/app/commandList.ts';
import { replaceDocument } from '../../../src/state/history.ts';
import { createStudioStore } from '../../../src/state/store.ts';

function projectWithOneQuestion(): Project {
  const p = emptyProject('test');
  p.scenes.push({
    id: 'S1',
    graph: { nodes: [{ id: 'a', name: 'Hall', description: '', position: { x: 0, y: 0, z: 0 }, floor: null }], edges: [] },
    questions: [
      { id: 'q0', text: 'Can [Agent] move from the hall to the hall?', start: { raw: 'a', nodeId: 'a' }, intermediate: [], end: { raw: 'a', nodeId: 'a' } },
    ],
    labels: {},
    hallucinated: [],
    foreignEntries: [],
    mesh: null,
  });
  return p;
}

const cmd = (id: CommandId) => findCommand(stateCommands, id);

describe('undo and redo of document commands', () => {
  it('marks a question hallucinated, undoes it, and redoes it, one step per gesture', () => {
    const store = createStudioStore();
    replaceDocument(store, projectWithOneQuestion());
    store.setState((s) => ({ session: { ...s.session, view: 'scene', sceneId: 'S1', questionIndex: 0 } }));
    const hallucinated = () => store.getState().document.project!.scenes[0]!.hallucinated;

    expect(runCommand(store, cmd('question.toggleHallucinated'))).toBe(true);
    expect(hallucinated()).toEqual(['Can [Agent] move from the hall to the hall?']);
    expect(runCommand(store, cmd('edit.undo'))).toBe(true);
    expect(hallucinated()).toEqual([]);
    expect(runCommand(store, cmd('edit.redo'))).toBe(true);
    expect(hallucinated()).toEqual(['Can [Agent] move from the hall to the hall?']);
    // Nothing more to redo: the command is disabled rather than doing something odd.
    expect(runCommand(store, cmd('edit.redo'))).toBe(false);
  });

  it('a new change after undo discards the redo branch', () => {
    const store = createStudioStore();
    replaceDocument(store, projectWithOneQuestion());
    store.setState((s) => ({ session: { ...s.session, view: 'scene', sceneId: 'S1', questionIndex: 0 } }));
    runCommand(store, cmd('question.toggleHallucinated'));
    runCommand(store, cmd('edit.undo'));
    runCommand(store, cmd('question.toggleHallucinated'));
    expect(store.getState().history.future).toEqual([]);
    expect(store.getState().history.past).toHaveLength(1);
  });

  it('an import replaces the document without entering history', () => {
    const store = createStudioStore();
    replaceDocument(store, projectWithOneQuestion());
    store.setState((s) => ({ session: { ...s.session, view: 'scene', sceneId: 'S1', questionIndex: 0 } }));
    runCommand(store, cmd('question.toggleHallucinated'));
    replaceDocument(store, emptyProject('other'));
    expect(runCommand(store, cmd('edit.undo'))).toBe(false);
    expect(store.getState().document.project!.name).toBe('other');
  });

  it('moving through scenes with J and K stops at the ends', () => {
    const store = createStudioStore();
    const p = projectWithOneQuestion();
    p.scenes.push({ ...p.scenes[0]!, id: 'S2' });
    replaceDocument(store, p);
    runCommand(store, cmd('scene.next'));
    expect(store.getState().session.sceneId).toBe('S1');
    runCommand(store, cmd('scene.next'));
    runCommand(store, cmd('scene.next'));
    expect(store.getState().session.sceneId).toBe('S2');
    runCommand(store, cmd('scene.previous'));
    runCommand(store, cmd('scene.previous'));
    expect(store.getState().session.sceneId).toBe('S1');
  });
});

describe('an edit is diffed once (issue 26 §3)', () => {
  it('its undo step, the lead check and storage share one diff of the two versions', () => {
    const store = createStudioStore();
    replaceDocument(store, emptyProject('house'));
    const before = store.getState().document.project!;
    applyEdit(store, PROJECT_EDITS.rename, { name: 'renamed' });
    const after = store.getState().document.project!;
    const step = store.getState().history.past.at(-1)!;
    expect(step.changes.map((c) => c.key)).toEqual(['project']);
    // Storage writing this step diffs the same two versions: it is handed the step's own list, not a new diff.
    expect(diffProjects(before, after)).toBe(step.changes);
    // A list several holders share cannot be changed by one of them.
    expect(() => (step.changes as unknown[]).push(null)).toThrow(TypeError);
  });
});
