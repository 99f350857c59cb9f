import { describe, expect, it } from 'vitest';
import { suggestionAgreement } from '../../../src/core/suggestionAgreement.ts';
import { setLabel, resolveConflict } from '../../../src/core/labelEdit.ts';
import { directionConflicts } from '../../../src/core/labels.ts';
import { addProfile, profileProblem, removeProfile, updateProfile } from '../../../src/core/profileEdit.ts';
import { emptyProject } from '../../../src/core/project.ts';
import { buildQueue, existingLabel, nextUnlabelled, queueProgress } from '../../../src/core/queue.ts';
import { blocked, navGraph, navQuestion, ref, sceneOf, traversable } from '../../support/sceneBuilder.ts';

/** hall — corridor — kitchen, with a study off the corridor; one question hall → kitchen. */
function house() {
  return sceneOf({
    graph: navGraph(['hall-corridor', 'kitchen-corridor', 'corridor-study']),
    questions: [
      navQuestion('Can [Agent] move from the hall to the kitchen?', ref('hall'), ref('kitchen')),
      navQuestion('Can [Agent] move from the study to the hall?', ref('study'), ref('hall')),
    ],
  });
}

describe('the labelling queue', () => {
  it('walks each question, agent by agent, segment by segment in the direction a route from the start takes', () => {
    const items = buildQueue(house(), ['WHEELCHAIR', 'SWEEPER']);
    expect(items.filter((i) => i.questionIndex === 0).map((i) => `${i.agent} ${i.from}→${i.to}`)).toEqual([
      'WHEELCHAIR hall→corridor',
      'WHEELCHAIR corridor→kitchen',
      'SWEEPER hall→corridor',
      'SWEEPER corridor→kitchen',
    ]);
    expect(items.filter((i) => i.questionIndex === 1 && i.agent === 'SWEEPER').map((i) => `${i.from}→${i.to}`)).toEqual(['study→corridor', 'corridor→hall']);
  });

  it('one label per agent per segment serves every question: labelling corridor→hall answers hall→corridor too', () => {
    let scene = house();
    const items = buildQueue(scene, ['WHEELCHAIR']);
    scene = setLabel(scene, 'WHEELCHAIR', 'corridor', 'hall', traversable());
    expect(existingLabel(scene, items[0]!)).toBeDefined(); // hall→corridor in question 0
    expect(queueProgress(scene, items).scene).toEqual({ done: 2, total: 4 });
    expect(queueProgress(scene, items).byQuestion[0]).toEqual({ done: 1, total: 2 });
    expect(nextUnlabelled(scene, items, 0)).toBe(1);
  });

  it('relabelling a segment labelled the other way replaces that label instead of adding a contradicting one', () => {
    let scene = setLabel(house(), 'WHEELCHAIR', 'corridor', 'hall', traversable());
    scene = setLabel(scene, 'WHEELCHAIR', 'hall', 'corridor', blocked('Sill 0.02 m'));
    expect(Object.keys(scene.labels.WHEELCHAIR!)).toEqual(['corridor|hall']);
    expect(scene.labels.WHEELCHAIR!['corridor|hall']!.traversable).toBe(false);
  });

  it('a direction conflict is resolved by giving both directions the chosen judgement', () => {
    let scene = house();
    scene = { ...scene, labels: { HUMAN: { 'hall|corridor': traversable(), 'corridor|hall': blocked('Step') } } };
    expect(directionConflicts(scene.labels)).toHaveLength(1);
    scene = resolveConflict(scene, 'HUMAN', 'corridor', 'hall', traversable('clear'));
    expect(directionConflicts(scene.labels)).toHaveLength(0);
  });

  it('hallucinated questions are not in the queue', () => {
    const scene = { ...house(), hallucinated: ['Can [Agent] move from the hall to the kitchen?'] };
    expect(new Set(buildQueue(scene, ['HUMAN']).map((i) => i.questionIndex))).toEqual(new Set([1]));
  });
});

describe('agreement between suggestions and confirmed labels', () => {
  it('counts only labels an annotator decided, once per segment', () => {
    const scene = {
      ...house(),
      labels: {
        WHEELCHAIR: {
          'hall|corridor': blocked('Sill', { source: 'annotator' }),
          'corridor|kitchen': traversable('ok', { source: 'annotator' }),
          'corridor|study': traversable('auto', { source: 'auto-approved' }),
        },
      },
    };
    const [a] = suggestionAgreement(scene, {
      WHEELCHAIR: { 'corridor|hall': { traversable: true }, 'corridor|kitchen': { traversable: true }, 'corridor|study': { traversable: false } },
    });
    expect(a).toMatchObject({ agent: 'WHEELCHAIR', compared: 2, agreed: 1 });
    expect(a!.disagreements).toEqual([{ edge: 'corridor|hall', suggested: true, confirmed: false }]);
  });
});

describe('custom agents', () => {
  it('adds a custom agent from the wheelchair, renames it with its labels, and refuses bad edits', () => {
    let p = emptyProject('agents');
    p.scenes.push({ ...house(), labels: {} });
    const added = addProfile(
      p,
      p.profiles.find((x) => x.name === 'WHEELCHAIR')!,
    );
    p = added.project;
    expect(added.name).toBe('CUSTOM1');
    p = { ...p, scenes: [{ ...p.scenes[0]!, labels: { CUSTOM1: { 'hall|corridor': traversable() } } }] };
    const custom = p.profiles.find((x) => x.name === 'CUSTOM1')!;
    expect(profileProblem(p, { ...custom, name: 'HUMAN' }, 'CUSTOM1')).toMatch(/already/);
    expect(profileProblem(p, { ...custom, name: 'my bot' }, 'CUSTOM1')).toMatch(/upper-case/);
    expect(profileProblem(p, { ...custom, depthM: null }, 'CUSTOM1')).toMatch(/depth/);
    expect(profileProblem(p, { ...p.profiles[0]!, name: 'ADULT' }, 'HUMAN')).toMatch(/keep their names/);
    p = updateProfile(p, 'CUSTOM1', { ...custom, name: 'DELIVERY_BOT', widthM: 0.55 });
    expect(p.scenes[0]!.labels.DELIVERY_BOT).toBeDefined();
    expect(p.scenes[0]!.labels.CUSTOM1).toBeUndefined();
    expect(removeProfile(p, 'HUMAN').profiles).toHaveLength(6);
    expect(removeProfile(p, 'DELIVERY_BOT').profiles).toHaveLength(5);
  });
});
