import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES } from '../../../../src/core/agents.ts';
import { emptyProject, type Project } from '../../../../src/core/project.ts';
import { unlabelledScenes } from '../../../../src/core/scoring/unlabelled.ts';
import { blocked, navGraph, navQuestion, ref, sceneOf, traversable } from '../../../support/sceneBuilder.ts';

const graph = navGraph(['a-b', 'b-c']);
const asks = [navQuestion('Can [Agent] move from a to c?', ref('a'), ref('c'))];
const projectOf = (...scenes: Project['scenes']): Project => ({ ...emptyProject('p', DEFAULT_PROFILES), scenes });

describe('scenes the Score view warns are not labelled yet', () => {
  it('a scene with questions and no labels is listed with every profiled agent, in display order (the bundled sample house as it opens)', () => {
    expect(unlabelledScenes(projectOf(sceneOf({ id: 'HOUSE', graph, questions: asks })))).toEqual([
      { sceneId: 'HOUSE', agents: ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'] },
    ]);
  });

  it('only the agents without a single label are named; a label of either verdict counts', () => {
    const labels = { HUMAN: { 'a|b': traversable() }, SWEEPER: { 'b|c': blocked('a 5 cm sill') } };
    expect(unlabelledScenes(projectOf(sceneOf({ id: 'HOUSE', graph, questions: asks, labels })))).toEqual([
      { sceneId: 'HOUSE', agents: ['WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL'] },
    ]);
  });

  it('nothing is said of a scene labelled for every agent (even in part), of a scene without questions, or of a project with no scenes', () => {
    const everyAgent = Object.fromEntries(DEFAULT_PROFILES.map((p) => [p.name, { 'a|b': traversable() }]));
    expect(unlabelledScenes(projectOf(sceneOf({ id: 'HOUSE', graph, questions: asks, labels: everyAgent })))).toEqual([]);
    expect(unlabelledScenes(projectOf(sceneOf({ id: 'EMPTY', graph })))).toEqual([]);
    expect(unlabelledScenes(projectOf())).toEqual([]);
  });

  it("agents are the project's profiles: a custom agent counts, a CapNav agent the project has no profile for does not", () => {
    const cart = { ...DEFAULT_PROFILES[0]!, name: 'CART' };
    const project: Project = {
      ...emptyProject('p', [DEFAULT_PROFILES[1]!, cart]),
      scenes: [sceneOf({ id: 'HOUSE', graph, questions: asks, labels: { WHEELCHAIR: { 'a|b': blocked('a step') } } })],
    };
    expect(unlabelledScenes(project)).toEqual([{ sceneId: 'HOUSE', agents: ['CART'] }]);
  });
});
