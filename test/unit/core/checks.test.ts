import { describe, expect, it } from 'vitest';
import { checkScene, type Finding } from '../../../src/core/checks.ts';
import { directionConflicts } from '../../../src/core/labels.ts';
import type { Scene } from '../../../src/core/project.ts';
import { blocked, navEdges, navNode, navQuestion, ref, sceneOf, traversable } from '../../support/sceneBuilder.ts';

const ASK = 'Can [Agent] move from the hall to the landing?';

/** A consistent scene: hall – kitchen – living – landing, one question, labels that fit. */
function cleanScene(): Scene {
  return sceneOf({
    graph: {
      nodes: [navNode('hall', 'Hall'), navNode('kitchen', 'Kitchen'), navNode('living', 'Living room'), navNode('landing', 'Landing')],
      edges: navEdges('hall-kitchen', 'kitchen-living', 'living-landing'),
    },
    questions: [navQuestion(ASK, ref('hall'), ref('Landing', 'landing'), [ref('Kitchen', 'kitchen')])],
    labels: { WHEELCHAIR: { 'hall|kitchen': traversable('Wide door', { question: ASK }), 'living|landing': blocked('Stairs', { question: ASK }) } },
    hallucinated: [],
  });
}

const only = (findings: Finding[], code: string) => findings.filter((f) => f.code === code);

describe('checking a scene', () => {
  it('a consistent scene has nothing to report', () => {
    expect(checkScene(cleanScene())).toEqual([]);
  });

  it('two rooms with the same id: fatal, pointing at the second one', () => {
    const scene = cleanScene();
    scene.graph.nodes.push(navNode('kitchen', 'Pantry'));
    expect(checkScene(scene)).toEqual([
      expect.objectContaining({ severity: 'fatal', code: 'node.duplicate-id', where: { kind: 'node', index: 4, field: 'id' } }),
    ]);
  });

  it('two doorways with the same edge id: fatal, pointing at the second one', () => {
    const scene = cleanScene();
    scene.graph.edges.push({ id: 'e0', from: 'hall', to: 'living' });
    expect(checkScene(scene)).toEqual([
      expect.objectContaining({ severity: 'fatal', code: 'edge.duplicate-id', where: { kind: 'edge', index: 3, field: 'id' } }),
    ]);
  });

  it('a doorway into a room that does not exist: an error naming the end that dangles (the graph stays usable without it)', () => {
    const scene = cleanScene();
    scene.graph.edges.push({ id: 'e9', from: 'garage', to: 'hall' });
    const found = checkScene(scene);
    expect(found).toEqual([expect.objectContaining({ severity: 'error', code: 'edge.missing-node', where: { kind: 'edge', index: 3, field: 'from' } })]);
    expect(found[0]!.message).toContain('garage');
  });

  it('a doorway from a room to itself: a warning', () => {
    const scene = cleanScene();
    scene.graph.edges.push({ id: 'e9', from: 'hall', to: 'hall' });
    expect(checkScene(scene)).toEqual([expect.objectContaining({ severity: 'warning', code: 'edge.self-loop', where: { kind: 'edge', index: 3 } })]);
  });

  it('the same doorway drawn twice, even in reverse: a warning naming the first edge', () => {
    const scene = cleanScene();
    scene.graph.edges.push({ id: 'e9', from: 'kitchen', to: 'hall' });
    const found = checkScene(scene);
    expect(found).toEqual([expect.objectContaining({ severity: 'warning', code: 'edge.repeated', where: { kind: 'edge', index: 3 } })]);
    expect(found[0]!.message).toContain('e0');
  });

  it('two questions with the same text: a warning on the second', () => {
    const scene = cleanScene();
    scene.questions.push(navQuestion(ASK, ref('kitchen'), ref('landing')));
    expect(checkScene(scene)).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'question.duplicate-text', where: { kind: 'question', index: 1, field: 'question' } }),
    ]);
  });

  it('a reference that names no room: an error at that waypoint, with the reason', () => {
    const scene = cleanScene();
    scene.questions[0]!.intermediate.push(ref('Secondd floor bedroom00', null));
    const found = checkScene(scene);
    expect(found).toEqual([
      expect.objectContaining({ severity: 'error', code: 'question.unresolved-ref', where: { kind: 'question', index: 0, field: 'intermediate', item: 1 } }),
    ]);
    expect(found[0]!.message).toContain('Secondd floor bedroom00');
  });

  it('unresolved start and end are reported at start and end', () => {
    const scene = cleanScene();
    scene.questions.push(navQuestion('Can [Agent] reach the attic?', ref('Cellar', null), ref('Attic', null)));
    expect(only(checkScene(scene), 'question.unresolved-ref').map((f) => f.where)).toEqual([
      { kind: 'question', index: 1, field: 'start' },
      { kind: 'question', index: 1, field: 'end' },
    ]);
  });

  it('"id — name" whose name belongs to another room: a warning, the reference still counts', () => {
    const scene = cleanScene();
    scene.questions[0]!.end = ref('landing — Kitchen', 'landing');
    expect(checkScene(scene)).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'question.ref-name-mismatch', where: { kind: 'question', index: 0, field: 'end' } }),
    ]);
  });

  it('a reference to a room deleted since import: an error', () => {
    const scene = cleanScene();
    scene.questions[0]!.start = ref('Cellar', 'cellar');
    expect(checkScene(scene)).toEqual([
      expect.objectContaining({ severity: 'error', code: 'question.missing-node', where: { kind: 'question', index: 0, field: 'start' } }),
    ]);
  });
});

describe('checking the labels of a scene', () => {
  const withLabel = (agent: string, key: string, label = traversable('ok', { question: ASK })) => {
    const scene = cleanScene();
    scene.labels[agent] = { ...scene.labels[agent], [key]: label };
    return checkScene(scene);
  };

  it('a label on a room that does not exist: an error naming it', () => {
    const found = withLabel('HUMAN', 'hall|garage');
    expect(found).toEqual([
      expect.objectContaining({ severity: 'error', code: 'label.unknown-node', where: { kind: 'label', agent: 'HUMAN', key: 'hall|garage' } }),
    ]);
    expect(found[0]!.message).toContain('garage');
  });

  it('a label between two rooms with no doorway: an error', () => {
    expect(withLabel('HUMAN', 'hall|landing')).toEqual([
      expect.objectContaining({ severity: 'error', code: 'label.not-an-edge', where: { kind: 'label', agent: 'HUMAN', key: 'hall|landing' } }),
    ]);
  });

  it('a segment labelled blocked with no reason: a warning', () => {
    expect(withLabel('SWEEPER', 'kitchen|living', blocked('  ', { question: ASK }))).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'label.no-reason', where: { kind: 'label', agent: 'SWEEPER', key: 'kitchen|living' } }),
    ]);
  });

  it('a label made for a question that is not in the question file: a warning', () => {
    expect(withLabel('HUMAN', 'kitchen|living', traversable('ok', { question: 'Can [Agent] fly?' }))).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'label.unknown-question' }),
    ]);
  });

  it('up and down the stairs labelled differently: a warning at the a|b key', () => {
    const found = withLabel('WHEELCHAIR', 'landing|living', traversable('Ramp going down', { question: ASK }));
    expect(found).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'label.direction-conflict', where: { kind: 'label', agent: 'WHEELCHAIR', key: 'landing|living' } }),
    ]);
  });

  it('a key that is not a from|to segment, kept aside on import: a warning', () => {
    const scene = cleanScene();
    scene.foreignEntries.push({ agentKey: 'HUMAN', key: 'startDetail:hall', value: { traversable: true } });
    expect(checkScene(scene)).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'label.unrecognised-key', where: { kind: 'label', agent: 'HUMAN', key: 'startDetail:hall' } }),
    ]);
  });

  it('a hallucinated question that matches no question: a warning at its list position', () => {
    const scene = cleanScene();
    scene.hallucinated.push(ASK, 'Can [Agent] move from the garage to the roof?');
    expect(checkScene(scene)).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'hallucinated.unknown-question', where: { kind: 'hallucinated', index: 1 } }),
    ]);
  });
});

describe('the two directions of a segment', () => {
  it('disagreeing directions are one conflict, reported once with a < b', () => {
    const up = blocked('Cannot climb');
    const down = traversable('Goes down');
    const conflicts = directionConflicts({ QUADRUPEDAL: { 'living|landing': up, 'landing|living': down } });
    expect(conflicts).toEqual([{ agent: 'QUADRUPEDAL', a: 'landing', b: 'living', forward: down, backward: up }]);
  });

  it('agreeing directions, or one direction only, are no conflict', () => {
    expect(directionConflicts({ HUMAN: { 'living|landing': traversable(), 'landing|living': traversable('also fine') } })).toEqual([]);
    expect(directionConflicts({ SWEEPER: { 'living|landing': blocked() } })).toEqual([]);
  });

  it('conflicts are per agent', () => {
    const labels = {
      HUMAN: { 'a|b': traversable(), 'b|a': traversable() },
      WHEELCHAIR: { 'a|b': traversable(), 'b|a': blocked() },
      SWEEPER: { 'b|a': traversable(), 'a|b': blocked() },
    };
    expect(
      directionConflicts(labels)
        .map((c) => c.agent)
        .sort(),
    ).toEqual(['SWEEPER', 'WHEELCHAIR']);
  });
});

describe("a room with no doorway (issue 13: the oracle's RV for HUMAN rested on one such question)", () => {
  it('a node without edges is flagged, naming the questions that start or end there', () => {
    const scene = cleanScene();
    scene.graph.nodes.push(navNode('media', 'Media room'));
    scene.questions.push(navQuestion('Can [Agent] move from the media room to the hall?', ref('Media room', 'media'), ref('hall')));
    const found = only(checkScene(scene), 'node.isolated');
    expect(found).toEqual([expect.objectContaining({ severity: 'warning', where: { kind: 'node', index: 4 } })]);
    expect(found[0]!.message).toContain('media ("Media room") has no edges');
    expect(found[0]!.message).toContain('question 1 starts there');
  });

  it('a node whose only edge loops back to itself is still isolated; once a doorway joins it, it is not', () => {
    const scene = cleanScene();
    scene.graph.nodes.push(navNode('media', 'Media room'));
    scene.graph.edges.push({ id: 'e8', from: 'media', to: 'media' });
    expect(only(checkScene(scene), 'node.isolated')).toHaveLength(1);
    const joined = cleanScene();
    joined.graph.nodes.push(navNode('media', 'Media room'));
    joined.graph.edges.push({ id: 'e9', from: 'media', to: 'hall' });
    expect(only(checkScene(joined), 'node.isolated')).toEqual([]);
    expect(checkScene(joined)).toEqual([]);
  });
});
