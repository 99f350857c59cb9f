import { describe, expect, it } from 'vitest';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { writeRelease } from '../../../../src/formats/capnav/write.ts';
import { agentTable, houseScene, Q, rawLabel, rawQuestion, releaseFiles, type SceneSpec } from '../../../support/releaseBuilder.ts';
import { withResolvedRefsAsIds } from '../../../support/projects.ts';

/** Import the scenes, export them again, and hand back the written files parsed. */
function exportAgain(scenes: SceneSpec[]) {
  const first = readRelease(releaseFiles(scenes));
  expect(first.project).not.toBeNull();
  const files = writeRelease(first.project!);
  const parsed = (path: string) => {
    const file = files.find((f) => f.path === path);
    if (!file) throw new Error(`${path} was not written (wrote ${files.map((f) => f.path).join(', ')})`);
    return JSON.parse(file.text) as Record<string, unknown> & unknown[];
  };
  return {
    first,
    files,
    parsed,
    graph: parsed('graphs/HM3D00025-graph.json'),
    qa: parsed('qa/HM3D00025_QA.json'),
    traverse: parsed('traverse/HM3D00025-traverse.json'),
  };
}

describe('exporting a project in the CapNav release layout', () => {
  it('writes agent_profile.json and, per scene, graphs/, qa/ and traverse/ files', () => {
    const { files } = exportAgain([houseScene(), houseScene('MP3D00001')]);
    expect(files.map((f) => f.path).sort()).toEqual([
      'agent_profile.json',
      'graphs/HM3D00025-graph.json',
      'graphs/MP3D00001-graph.json',
      'qa/HM3D00025_QA.json',
      'qa/MP3D00001_QA.json',
      'traverse/HM3D00025-traverse.json',
      'traverse/MP3D00001-traverse.json',
    ]);
  });

  it('writes the graph and the labels back exactly as they were read', () => {
    const house = houseScene();
    const { graph, traverse } = exportAgain([house]);
    expect(graph).toEqual(house.graph);
    expect(traverse).toEqual(house.traverse);
  });

  it('writes the humanoid robot back under ROBOT, never HUMANOID', () => {
    const { traverse } = exportAgain([houseScene()]);
    expect(Object.keys(traverse)).toContain('ROBOT');
    expect(Object.keys(traverse)).not.toContain('HUMANOID');
  });

  it('writes every resolved reference as its node id, whatever form it was written in', () => {
    const { qa } = exportAgain([houseScene()]);
    const refs = (qa as { nodes_involved: { start: string; intermediate: string[]; end: string } }[]).map((q) => [
      q.nodes_involved.start,
      ...q.nodes_involved.intermediate,
      q.nodes_involved.end,
    ]);
    expect(refs).toEqual([
      ['node_1', 'node_8'],
      ['node_2', 'node_3', 'node_12'],
      ['node_1', 'node_2'],
    ]);
  });

  it('writes the rest of each question unchanged, including the [Agent] placeholder and details', () => {
    const house = houseScene();
    const { qa } = exportAgain([house]);
    const withoutRefs = (q: unknown) => {
      const { nodes_involved: ni, ...rest } = q as { nodes_involved: Record<string, unknown> };
      const { start: _s, intermediate: _i, end: _e, ...details } = ni;
      return { ...rest, details };
    };
    expect(qa.map(withoutRefs)).toEqual(house.qa.map(withoutRefs));
  });

  it('writes an unresolved reference back verbatim, so nothing the annotator wrote is lost', () => {
    const house = houseScene();
    house.qa.push(rawQuestion(Q.kitchenToTypo, 'Kitchen', ' Secondd floor bedroom00', ['Living room']));
    const { qa } = exportAgain([house]);
    expect(qa[3]).toMatchObject({ nodes_involved: { start: 'node_2', intermediate: ['node_3'], end: ' Secondd floor bedroom00' } });
  });

  it('keeps a segment labelled in both directions as two entries', () => {
    const house = houseScene();
    agentTable(house.traverse, 'QUADRUPEDAL')['node_3|node_5'] = rawLabel(false, 'Cannot climb', { question: Q.hallToBedroom });
    agentTable(house.traverse, 'QUADRUPEDAL')['node_5|node_3'] = rawLabel(true, 'Goes down', { question: Q.hallToBedroom });
    const { traverse } = exportAgain([house]);
    expect(traverse.QUADRUPEDAL).toEqual(house.traverse.QUADRUPEDAL);
  });

  it('adds an empty _hallucinatedQuestions list where the file had none, and changes nothing else', () => {
    const house = houseScene();
    delete house.traverse._hallucinatedQuestions;
    const { traverse } = exportAgain([house]);
    expect(traverse).toEqual({ ...house.traverse, _hallucinatedQuestions: [] });
  });

  it('keeps an odd label key like startDetail:node_12 verbatim, under the agent it was found in', () => {
    const house = houseScene();
    const odd = { traversable: true, note: 'Auto-approved: able-bodied human', timestamp: '2025-10-29T03:12:03.554Z' };
    agentTable(house.traverse, 'HUMAN')['startDetail:node_12'] = odd;
    agentTable(house.traverse, 'ROBOT')['endDetail:node_8'] = { anything: ['goes'] };
    const { traverse } = exportAgain([house]);
    expect(traverse).toEqual(house.traverse);
  });

  it('keeps fields Traversa does not model, at every level of every file', () => {
    const house = houseScene();
    house.graph.nodes[0]!.floor_hint = 'ground';
    house.graph.nodes[1]!.floor = 0;
    house.graph.edges[3]!.kind = 'stairs';
    house.graph.meta = { units: 'm', source: 'scan v2' };
    house.qa[0]!.difficulty = 'easy';
    house.qa[0]!.nodes_involved!.via_note = 'passes the coat rack';
    agentTable(house.traverse, 'HUMAN')['node_1|node_3']!.reviewer = 'ann';
    house.traverse._source = 'annotation tool 0.9';
    const { graph, qa, traverse, first } = exportAgain([house]);
    expect(first.problems.map((p) => p.code)).toEqual(['traverse.unknown-key']);
    expect(graph).toEqual(house.graph);
    expect(traverse).toEqual(house.traverse);
    expect(qa[0]).toMatchObject({ difficulty: 'easy', nodes_involved: { via_note: 'passes the coat rack' } });
  });

  it('reads back what it wrote: the same project, with resolved references now given as ids', () => {
    const house = houseScene();
    house.qa.push(rawQuestion(Q.kitchenToTypo, 'Kitchen', 'Secondd floor bedroom00'));
    agentTable(house.traverse, 'HUMAN')['startDetail:node_12'] = rawLabel(true, 'odd');
    house.graph.edges[0]!.kind = 'door';
    const first = readRelease(releaseFiles([house]));
    const written = writeRelease(first.project!);
    const second = readRelease(written);
    expect(second.project).toEqual(withResolvedRefsAsIds(first.project!));
    // Writing the re-read project gives the very same files: export is a fixpoint.
    expect(writeRelease(second.project!)).toEqual(written);
  });

  it('a traverse file that keys the humanoid as HUMANOID, with an odd key in its table, can be read back after export', () => {
    // The reader accepts HUMANOID as well as ROBOT. The writer puts the labels under ROBOT but the
    // odd entry under the key it was found in, so the exported file holds two humanoid tables.
    const house = houseScene();
    house.traverse.HUMANOID = house.traverse.ROBOT;
    delete house.traverse.ROBOT;
    agentTable(house.traverse, 'HUMANOID')['startDetail:node_1'] = rawLabel(true, 'odd');
    const first = readRelease(releaseFiles([house]));
    expect(first.project).not.toBeNull();
    const second = readRelease(writeRelease(first.project!));
    expect(second.problems.filter((p) => p.severity === 'fatal')).toEqual([]);
    expect(second.project).not.toBeNull();
  });
});
