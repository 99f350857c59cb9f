import { describe, expect, it } from 'vitest';
import type { NavNode } from '../../../../src/core/graph.ts';
import { emptyProject, type Project } from '../../../../src/core/project.ts';
import { PROMPT_VERSION } from '../../../../src/core/taskgen/guideline.ts';
import { checkTaskReply } from '../../../../src/core/taskgen/reply.ts';
import { findCommand, runCommand } from '../../../../src/state/commands.ts';
import type { CommandId } from '../../../../src/state/commandIds.ts';
import { stateCommands } from '../../../../src/app/commandList.ts';
import { applyEdit } from '../../../../src/state/edits.ts';
import { openItemRoute } from '../../../../src/features/qa/state/evidence.ts';
import { replaceDocument } from '../../../../src/state/history.ts';
import { selectItem } from '../../../../src/features/qa/state/qaItems.ts';
import { recordVerdict } from '../../../../src/features/review/state/qaReview.ts';
import { createStudioStore } from '../../../../src/state/store.ts';
import { TASK_EDITS } from '../../../../src/features/tasks/state/taskEdits.ts';
import { navEdges, sceneOf } from '../../../support/sceneBuilder.ts';

const node = (id: string, name: string, x: number): NavNode => ({ id, name, description: '', position: { x, y: 0, z: 0 }, floor: null });
const NODES = [node('h', 'Hall', 0), node('l', 'Living room', 4), node('k', 'Kitchen', 8)];
const reply = JSON.stringify([
  {
    question: 'Can [Agent] move from the rack in the hall to the sink in the kitchen?',
    reason: 'Seen at 00:01-00:03.',
    nodes_involved: { start: 'h', start_detail: 'rack', intermediate: [], end: 'k', end_detail: 'sink' },
  },
  {
    question: 'Can [Agent] move from the sofa to the hall?',
    reason: 'At 00:04.',
    nodes_involved: { start: 'Living room', start_detail: 'sofa', intermediate: [], end: 'h', end_detail: 'door' },
  },
]);

function project(): Project {
  const p = emptyProject('test');
  return { ...p, scenes: [sceneOf({ id: 'S1', graph: { nodes: NODES, edges: navEdges('h-l', 'l-k') } })] };
}

const cmd = (id: CommandId) => findCommand(stateCommands, id);
const insertion = () => ({
  sceneId: 'S1',
  tasks: checkTaskReply(reply, { nodes: NODES, minTasks: 2 }).tasks,
  provenance: {
    model: 'm',
    promptVersion: PROMPT_VERSION,
    endpoint: 'localhost:1',
    frames: { budget: '16', times: [0, 1] },
    generatedAt: '2026-01-01T00:00:00Z',
  },
});

describe('generated tasks in the studio', () => {
  it('one run is one undo step: its scene questions and its items go in, and come out, together', () => {
    const store = createStudioStore();
    replaceDocument(store, project());
    const doc = () => store.getState().document.project!;
    expect(applyEdit(store, TASK_EDITS.add, insertion())).toBe(true);
    expect(store.getState().history.past).toHaveLength(1);
    expect(doc().scenes[0]!.questions).toHaveLength(2);
    expect(doc().qa.items.map((i) => [i.id, i.source, i.capnavQuestion])).toEqual([
      ['qa_1', 'generated', 0],
      ['qa_2', 'generated', 1],
    ]);
    expect(runCommand(store, cmd('edit.undo'))).toBe(true);
    expect(doc().scenes[0]!.questions).toHaveLength(0);
    expect(doc().qa.items).toHaveLength(0);
    expect(runCommand(store, cmd('edit.redo'))).toBe(true);
    expect(doc().qa.items).toHaveLength(2);
  });

  it('rejecting a generated task as trivial takes it out of the benchmark; undoing the verdict brings it back', () => {
    const store = createStudioStore();
    replaceDocument(store, project());
    applyEdit(store, TASK_EDITS.add, insertion());
    store.setState((s) => ({ session: { ...s.session, view: 'qa', annotator: 'rita' }, qa: { ...s.qa, mode: 'review' } }));
    selectItem(store, 'qa_2');
    expect(recordVerdict(store, { verdict: 'reject', reason: 'trivial' })).toBeNull();
    const scene = () => store.getState().document.project!.scenes[0]!;
    expect(scene().hallucinated).toEqual(['Can [Agent] move from the sofa to the hall?']);
    runCommand(store, cmd('edit.undo'));
    expect(scene().hallucinated).toEqual([]);
  });

  it("the open item's implied route follows the review: from the question it stands for", () => {
    const store = createStudioStore();
    replaceDocument(store, project());
    applyEdit(store, TASK_EDITS.add, insertion());
    selectItem(store, 'qa_1');
    const route = openItemRoute(store.getState());
    expect(route?.nodes).toEqual(['h', 'l', 'k']);
    expect(openItemRoute(store.getState())).toBe(route); // the same object while nothing changes (a selector)
    selectItem(store, 'qa_2');
    expect(openItemRoute(store.getState())?.nodes).toEqual(['l', 'h']);
  });
});
