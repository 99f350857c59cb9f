import { describe, expect, it } from 'vitest';
import { datasetStats } from '../../../src/core/stats.ts';
import { readRelease, sceneOrder } from '../../../src/formats/capnav/read.ts';
import { agentTable, houseScene, Q, questionsOf, rawEdge, rawLabel, rawNode, rawQuestion, releaseFiles } from '../../support/releaseBuilder.ts';
import { blocking, where } from '../../support/projects.ts';

const GRAPH = 'graphs/HM3D00025-graph.json';
const QA = 'qa/HM3D00025_QA.json';
const TRAVERSE = 'traverse/HM3D00025-traverse.json';

const read = (...args: Parameters<typeof releaseFiles>) => readRelease(releaseFiles(...args));
const sceneOf = (r: ReturnType<typeof readRelease>) => r.project!.scenes[0]!;

describe('importing a CapNav release as users have it', () => {
  it('reads the house with every reference form resolved and nothing to report', () => {
    const r = read([houseScene()]);
    expect(r.problems).toEqual([]);
    const scene = sceneOf(r);
    expect(scene.id).toBe('HM3D00025');
    expect(scene.graph.nodes.map((n) => n.id)).toEqual(['node_1', 'node_2', 'node_3', 'node_5', 'node_12', 'node_8']);
    expect(scene.graph.edges).toHaveLength(6);
    const [byIdAndName, byDashes] = scene.questions;
    expect([byIdAndName!.start.nodeId, byIdAndName!.end.nodeId]).toEqual(['node_1', 'node_8']);
    // em dash start, spaced-hyphen intermediate, a name containing " - " as the end
    expect([byDashes!.start.nodeId, ...byDashes!.intermediate.map((r) => r.nodeId), byDashes!.end.nodeId]).toEqual(['node_2', 'node_3', 'node_12']);
    expect(scene.hallucinated).toEqual([Q.garage]);
    expect(r.project!.profiles.map((p) => p.name)).toEqual(['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER']);
  });

  it('reads questions given as { "questions": [...] } exactly like a bare list', () => {
    const house = houseScene();
    const wrapped = read([{ ...house, qa: { questions: house.qa } }]);
    expect(wrapped.problems).toEqual([]);
    expect(wrapped.project).toEqual(read([house]).project);
  });

  it('reads the humanoid robot, stored as ROBOT, under its canonical name HUMANOID', () => {
    const labels = sceneOf(read([houseScene()])).labels;
    expect(Object.keys(labels).sort()).toEqual(['HUMAN', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER', 'WHEELCHAIR']);
    expect(labels.HUMANOID!['node_3|node_5']).toMatchObject({ traversable: false, note: 'Stairs' });
  });

  it('keeps both directions of a segment labelled both ways, and flags them when they disagree', () => {
    const house = houseScene();
    agentTable(house.traverse, 'WHEELCHAIR')['node_5|node_3'] = rawLabel(true, 'Stair lift going down', { question: Q.hallToBedroom });
    const r = read([house]);
    const wheelchair = sceneOf(r).labels.WHEELCHAIR!;
    expect(wheelchair['node_3|node_5']!.traversable).toBe(false);
    expect(wheelchair['node_5|node_3']!.traversable).toBe(true);
    expect(where(r.problems)).toEqual([{ severity: 'warning', code: 'label.direction-conflict', file: TRAVERSE, location: '/WHEELCHAIR/node_3|node_5' }]);
  });

  it('accepts a traverse file without _hallucinatedQuestions: no question is hallucinated', () => {
    const house = houseScene();
    delete house.traverse._hallucinatedQuestions;
    const r = read([house]);
    expect(r.problems).toEqual([]);
    expect(sceneOf(r).hallucinated).toEqual([]);
  });

  it('keeps an odd label key like startDetail:node_12 aside, with a warning, and does not count it', () => {
    const house = houseScene();
    const odd = rawLabel(true, 'Auto-approved: able-bodied human');
    agentTable(house.traverse, 'HUMAN')['startDetail:node_12'] = odd;
    const r = read([house]);
    expect(where(r.problems)).toEqual([{ severity: 'warning', code: 'label.unrecognised-key', file: TRAVERSE, location: '/HUMAN/startDetail:node_12' }]);
    const scene = sceneOf(r);
    expect(scene.foreignEntries).toEqual([{ agentKey: 'HUMAN', key: 'startDetail:node_12', value: odd }]);
    expect(Object.keys(scene.labels.HUMAN!)).not.toContain('startDetail:node_12');
    expect(datasetStats(r.project!).agents.HUMAN!.labels).toBe(6);
  });

  it('reads the same release given under a leading folder, and reports paths inside the release', () => {
    const house = houseScene();
    questionsOf(house)[0]!.nodes_involved!.end = 'Secondd floor bedroom00';
    const plain = read([house]);
    const nested = read([house], { root: 'capnav' });
    expect(nested.project).toEqual(plain.project);
    expect(where(nested.problems)).toEqual([{ severity: 'error', code: 'question.unresolved-ref', file: QA, location: '/0/nodes_involved/end' }]);
  });

  it('reads the same release with every file flattened into one folder', () => {
    const flat = read([houseScene()], { flat: true });
    expect(flat.problems).toEqual([]);
    expect(flat.project).toEqual(read([houseScene()]).project);
  });

  it('imports a question whose reference names no room, reporting it as an error at that reference', () => {
    const house = houseScene();
    house.qa.push(rawQuestion(Q.kitchenToTypo, 'Kitchen', 'Secondd floor bedroom00'));
    const r = read([{ ...house, qa: { questions: house.qa } }]);
    expect(r.project).not.toBeNull();
    expect(where(r.problems)).toEqual([{ severity: 'error', code: 'question.unresolved-ref', file: QA, location: '/questions/3/nodes_involved/end' }]);
    expect(r.problems[0]!.message).toContain('Secondd floor bedroom00');
    expect(sceneOf(r).questions[3]!.end).toEqual({ raw: 'Secondd floor bedroom00', nodeId: null });
  });

  it('points an unresolved intermediate waypoint at its place in the intermediate list', () => {
    const house = houseScene();
    house.qa.push(rawQuestion(Q.kitchenToTypo, 'Kitchen', 'node_8', ['Living room', 'Landingg']));
    expect(where(read([house]).problems)).toEqual([
      { severity: 'error', code: 'question.unresolved-ref', file: QA, location: '/3/nodes_involved/intermediate/1' },
    ]);
  });

  it('points a humanoid label problem at the ROBOT table the file actually has', () => {
    const house = houseScene();
    agentTable(house.traverse, 'ROBOT')['node_5|node_3'] = rawLabel(true, 'Going down is fine', { question: Q.hallToBedroom });
    agentTable(house.traverse, 'ROBOT')['node_2|node_5'] = rawLabel(true, 'No such doorway', { question: Q.hallToBedroom });
    expect(where(read([house]).problems)).toEqual([
      { severity: 'error', code: 'label.not-an-edge', file: TRAVERSE, location: '/ROBOT/node_2|node_5' },
      { severity: 'warning', code: 'label.direction-conflict', file: TRAVERSE, location: '/ROBOT/node_3|node_5' },
    ]);
  });
});

describe('a release that cannot be imported is refused whole, naming the file and the place', () => {
  const refused = (r: ReturnType<typeof readRelease>) => {
    expect(r.project).toBeNull();
    return where(blocking(r.problems));
  };

  it('malformed JSON: the line and column of the syntax error', () => {
    const graph = '{\n  "nodes": [\n    { "id": "node_1", }\n  ],\n  "edges": []\n}\n';
    expect(refused(read([{ ...houseScene(), graph }]))).toEqual([{ severity: 'fatal', code: 'json.malformed', file: GRAPH, location: 'line 3, column 23' }]);
  });

  it('malformed JSON in one scene refuses the whole release, not just that scene', () => {
    const broken = { ...houseScene('MP3D00001'), traverse: '{ "HUMAN": {' };
    const r = read([houseScene(), broken]);
    expect(r.project).toBeNull();
    expect(blocking(r.problems).map((p) => p.file)).toEqual(['traverse/MP3D00001-traverse.json']);
  });

  it('a room whose name is a number', () => {
    const house = houseScene();
    house.graph.nodes[2]!.name = 7;
    const [problem] = blocking(read([house]).problems);
    expect(refused(read([house]))).toEqual([{ severity: 'fatal', code: 'schema', file: GRAPH, location: '/nodes/2/name' }]);
    expect(problem!.message).toMatch(/"name" should be string, not number 7/);
  });

  it('a question without nodes_involved', () => {
    const house = houseScene();
    delete house.qa[1]!.nodes_involved;
    expect(refused(read([house]))).toEqual([{ severity: 'fatal', code: 'schema', file: QA, location: '/1/nodes_involved' }]);
    expect(refused(read([{ ...house, qa: { questions: house.qa } }]))).toEqual([
      { severity: 'fatal', code: 'schema', file: QA, location: '/questions/1/nodes_involved' },
    ]);
  });

  it('a label that says traversable: "yes"', () => {
    const house = houseScene();
    agentTable(house.traverse, 'WHEELCHAIR')['node_1|node_3']!.traversable = 'yes';
    const r = read([house]);
    expect(refused(r)).toEqual([{ severity: 'fatal', code: 'schema', file: TRAVERSE, location: '/WHEELCHAIR/node_1|node_3/traversable' }]);
    expect(blocking(r.problems)[0]!.message).toContain('"yes"');
  });

  it('a label whose note, timestamp, question or annotator is not text is refused there; null notes and extra fields are read', () => {
    for (const field of ['note', 'timestamp', 'question', 'annotator'] as const) {
      const house = houseScene();
      (agentTable(house.traverse, 'WHEELCHAIR')['node_1|node_3'] as Record<string, unknown>)[field] = 5;
      expect(refused(read([house]))).toEqual([{ severity: 'fatal', code: 'schema', file: TRAVERSE, location: `/WHEELCHAIR/node_1|node_3/${field}` }]);
    }
    const house = houseScene();
    Object.assign(agentTable(house.traverse, 'WHEELCHAIR')['node_1|node_3']!, { note: null, confidence: { by: 'me', level: 2 } });
    const r = read([house]);
    expect(blocking(r.problems)).toEqual([]);
    const label = sceneOf(r).labels.WHEELCHAIR!['node_1|node_3']!;
    expect(label.note).toBe('');
    expect(label.extra).toEqual({ confidence: { by: 'me', level: 2 } });
  });

  it('two rooms with the same id', () => {
    const house = houseScene();
    house.graph.nodes.push(rawNode('node_3', 'Dining room'));
    expect(refused(read([house]))).toEqual([{ severity: 'fatal', code: 'node.duplicate-id', file: GRAPH, location: '/nodes/6/id' }]);
  });

  it('a doorway to a room that is not in the graph is imported, reported, and ignored by routing', () => {
    const house = houseScene();
    house.graph.edges.push(rawEdge('edge_7', 'node_8', 'node_99'));
    const r = read([house]);
    expect(r.project).not.toBeNull();
    expect(r.problems.filter((p) => p.code === 'edge.missing-node').map((p) => ({ severity: p.severity, file: p.file, location: p.location }))).toEqual([
      { severity: 'error', file: GRAPH, location: '/edges/6/to' },
    ]);
  });

  it('two graph files for one scene', () => {
    const files = releaseFiles([houseScene()]);
    files.push({ path: 'backup/HM3D00025-graph.json', text: files[1]!.text });
    const r = readRelease(files);
    expect(refused(r)).toEqual([{ severity: 'fatal', code: 'file.duplicate', file: 'backup/HM3D00025-graph.json', location: '' }]);
    expect(blocking(r.problems)[0]!.message).toContain(GRAPH);
  });

  it('files added one at a time in any order (as a browser reads a picked folder) give the same project and problems', () => {
    const second = { ...houseScene(), id: 'HM3D00026' };
    second.graph.edges.push(rawEdge('edge_7', 'node_8', 'node_99'));
    const files = releaseFiles([houseScene(), second]);
    const sorted = readRelease(files);
    const key = (p: { code: string; file: string; location: string }) => `${p.code} ${p.file} ${p.location}`;
    for (const order of [[...files].reverse(), [...files.filter((_, i) => i % 2), ...files.filter((_, i) => !(i % 2))]]) {
      const r = readRelease(order);
      expect(r.project).toEqual(sorted.project);
      expect(r.problems.map(key).sort()).toEqual(sorted.problems.map(key).sort());
      // Scene problems come in scene order, whichever scene's files were complete first.
      const sceneFiles = r.problems.filter((p) => p.code === 'edge.missing-node').map((p) => p.file);
      expect(sceneFiles).toEqual(['graphs/HM3D00026-graph.json']);
    }
    expect(sorted.problems.some((p) => p.code === 'edge.missing-node')).toBe(true);
  });

  it('files are read scene by scene, profiles first; a scene’s files (duplicates too) keep the order they were picked in', () => {
    const paths = [
      'r/graphs/A-graph.json',
      'r/graphs/B-graph.json',
      'r/qa/B_QA.json',
      'r/qa/A_QA.json',
      'r/backup/A-graph.json',
      'r/agent_profile.json',
      'r/notes.json',
      'r/traverse/A-traverse.json',
    ];
    expect(sceneOrder(paths.map((path) => ({ path }))).map((f) => f.path)).toEqual([
      'r/agent_profile.json',
      'r/notes.json',
      'r/graphs/A-graph.json',
      'r/qa/A_QA.json',
      'r/backup/A-graph.json',
      'r/traverse/A-traverse.json',
      'r/graphs/B-graph.json',
      'r/qa/B_QA.json',
    ]);
  });

  it('a question file whose scene has no graph', () => {
    const orphan = { id: 'HM3D00099', qa: [rawQuestion(Q.kitchenToLiving, 'node_2', 'node_3')] };
    expect(refused(read([houseScene(), orphan]))).toEqual([{ severity: 'fatal', code: 'scene.no-graph', file: 'qa/HM3D00099_QA.json', location: '' }]);
  });

  it('a folder with no release files at all', () => {
    const r = readRelease([{ path: 'notes/readme.json', text: '{}' }]);
    expect(r.project).toBeNull();
    expect(r.problems.map((p) => p.code)).toEqual(['file.ignored', 'release.empty']);
  });
});

describe('a release far larger than any real one (issue 25 §9)', () => {
  it('150,000 problems in one scene are all reported: none is passed as a call argument (that overflowed the stack)', () => {
    const scene = houseScene('HUGE');
    for (let i = 0; i < 150_000; i++) scene.graph.edges.push(rawEdge(`ghost_edge_${i}`, `ghost_${i}`, 'node_1'));
    const read = readRelease(releaseFiles([scene]));
    expect(read.problems.length).toBeGreaterThanOrEqual(150_000);
    expect(read.problems.some((p) => p.location.includes('ghost_edge_149999') || p.message.includes('ghost_149999'))).toBe(true);
  });
});
