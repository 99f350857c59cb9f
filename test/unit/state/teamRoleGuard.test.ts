import { describe, expect, it } from 'vitest';
import { setLabel } from '../../../src/core/labelEdit.ts';
import { deleteNodes } from '../../../src/core/graphEdit.ts';
import { leadWorkIn, teamRoleOf } from '../../../src/core/sync/validateDoc.ts';
import { readRelease } from '../../../src/formats/capnav/read.ts';
import { deleteScene } from '../../../src/state/commands.ts';
import { applyEdit, sceneEdit } from '../../../src/state/edits.ts';
import { undo } from '../../../src/state/history.ts';
import { createStudioStore, initialState, type TeamState } from '../../../src/state/store.ts';
import { houseScene, releaseFiles } from '../../support/releaseBuilder.ts';

const SCENE = 'HM3D00025';
const removeNode = sceneEdit('test.deleteNode', 'Delete node', (s, a: { id: string }) => deleteNodes(s, [a.id]));
const label = sceneEdit('test.label', 'Label', (s, a: { from: string; to: string }) =>
  setLabel(s, 'HUMAN', a.from, a.to, { traversable: true, note: '', annotator: 'ben', timestamp: 't', source: 'annotator' }),
);

function studioAs(team: Partial<TeamState>) {
  const project = readRelease(releaseFiles([houseScene(SCENE)])).project!;
  const store = createStudioStore({ ...initialState(), document: { project } });
  store.setState((s) => ({ team: { ...s.team, state: 'synced', url: 'http://127.0.0.1:5984/house', user: 'ben', ...team } }));
  return { store, scene: () => store.getState().document.project!.scenes[0]! };
}

/** Issue 24 §2 in the studio: an annotator's edit that is a lead's work is held back and said, before the server refuses it. */
describe("a lead's work held back from an annotator in a team project", () => {
  it('reads the role as the validation does', () => {
    expect(teamRoleOf('http://h:5984/house', ['traversa-lead:house'])).toBe('lead');
    expect(teamRoleOf('http://h:5984/house/', ['traversa-lead:other'])).toBe('annotator');
    expect(teamRoleOf('http://h:5984/house', ['_admin'])).toBe('admin');
    expect(leadWorkIn(['label/S/HUMAN/a|b/ben', 'node/S/n1', 'edge/S/e1'])).toBe('the graph');
    expect(leadWorkIn(['label/S/HUMAN/a|b/ben', 'review/qa_1/ben'])).toBeNull();
  });

  it('an annotator deleting a node: nothing changes, the notice says why; her label goes through', () => {
    const { store, scene } = studioAs({ role: 'annotator' });
    const node = scene().graph.nodes[0]!.id;
    expect(applyEdit(store, removeNode, { sceneId: SCENE, id: node })).toBe(false);
    expect(scene().graph.nodes.some((n) => n.id === node)).toBe(true);
    expect(store.getState().history.past).toHaveLength(0);
    expect(store.getState().ephemeral.notice).toBe(
      'Only a lead of house changes the graph: ben is an annotator in this team project. Ask a lead — or the admin, with team create-project --lead ben.',
    );
    const e = scene().graph.edges[0]!;
    expect(applyEdit(store, label, { sceneId: SCENE, from: e.from, to: e.to })).toBe(true);
  });

  it('a lead, or a project not synced, edits the graph as before', () => {
    for (const team of [{ role: 'lead' as const }, { role: 'annotator' as const, state: 'off' as const }]) {
      const { store, scene } = studioAs(team);
      const node = scene().graph.nodes[0]!.id;
      expect(applyEdit(store, removeNode, { sceneId: SCENE, id: node }), JSON.stringify(team)).toBe(true);
    }
  });

  it("removing a scene: an annotator is told it is a lead's work; a lead removes it in one undo step", async () => {
    const annotator = studioAs({ role: 'annotator' });
    expect(deleteScene(annotator.store, SCENE)).toBe(false);
    expect(annotator.store.getState().document.project!.scenes).toHaveLength(1);
    expect(annotator.store.getState().ephemeral.notice).toMatch(/^Only a lead of house changes scenes: ben is an annotator/);

    const lead = studioAs({ role: 'lead' });
    lead.store.setState((s) => ({ session: { ...s.session, sceneId: SCENE, view: 'scene' } }));
    expect(deleteScene(lead.store, SCENE)).toBe(true);
    expect(lead.store.getState().document.project!.scenes).toHaveLength(0);
    expect(lead.store.getState().session).toMatchObject({ sceneId: null, view: 'overview' });
    expect(lead.store.getState().history.past).toHaveLength(1);
    await undo(lead.store);
    expect(lead.store.getState().document.project!.scenes.map((s) => s.id)).toEqual([SCENE]);
  });
});
