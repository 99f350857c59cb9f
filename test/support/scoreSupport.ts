import type { Label } from '../../src/core/labels.ts';
import { emptyProject, type Project } from '../../src/core/project.ts';
import type { Prediction } from '../../src/core/scoring/paper/types.ts';
import { blocked, navEdges, navNode, navQuestion, ref, sceneOf, traversable } from './sceneBuilder.ts';

/**
 * A small house for scoring scenarios. Ground floor: hall, kitchen and living room in a ring;
 * a bathroom off the hall through a narrow door; a study behind a closed door; stairs from the
 * living room up to the landing and the master bedroom.
 */
export const QUESTIONS = {
  hallToBedroom: 'Can [Agent] move from the front hall to the master bedroom?',
  kitchenToBath: 'Can [Agent] move from the kitchen to the bathroom?',
  hallToKitchen: 'Can [Agent] move from the front hall to the kitchen?',
  garage: 'Can [Agent] move from the garage to the kitchen?',
  attic: 'Can [Agent] move from the kitchen to the attic?',
} as const;

const EDGES = ['hall-kitchen', 'kitchen-living', 'living-hall', 'living-landing', 'landing-bedroom', 'hall-bath', 'hall-study'];

function labels(entries: Record<string, Label>): Record<string, Label> {
  return Object.fromEntries(Object.entries(entries).map(([k, v]) => [k.replace('-', '|'), v]));
}

export function scoringHouse(): Project {
  const all = (l: Label) => labels(Object.fromEntries(EDGES.map((e) => [e, l])));
  const scene = sceneOf({
    id: 'HOUSE01',
    graph: {
      nodes: [
        navNode('hall', 'Front hall'),
        navNode('kitchen', 'Kitchen'),
        navNode('living', 'Living room'),
        navNode('landing', 'Stair landing'),
        navNode('bedroom', 'Master bedroom'),
        navNode('bath', 'Bathroom'),
        navNode('study', 'Study'),
      ],
      edges: navEdges(...EDGES),
    },
    questions: [
      navQuestion(QUESTIONS.hallToBedroom, ref('hall'), ref('bedroom')),
      navQuestion(QUESTIONS.kitchenToBath, ref('kitchen'), ref('bath')),
      navQuestion(QUESTIONS.hallToKitchen, ref('hall'), ref('kitchen')),
      navQuestion(QUESTIONS.garage, ref('Garage', null), ref('kitchen')),
      navQuestion(QUESTIONS.attic, ref('kitchen'), ref('Attic', null)),
    ].map((q, i) => ({ ...q, id: `q${i}` })),
    hallucinated: [QUESTIONS.garage],
    labels: {
      HUMAN: all(traversable('Auto-approved: able-bodied human')),
      WHEELCHAIR: labels({
        'hall-kitchen': traversable(),
        'kitchen-living': traversable(),
        'living-hall': traversable(),
        'living-landing': blocked('cannot go up/down stairs'),
        'landing-bedroom': traversable(),
        'hall-bath': blocked('bathroom door too narrow'),
        'hall-study': traversable(),
      }),
      // Traversa labels carry a reason category; it wins over what the note's words say.
      HUMANOID: labels({
        'hall-kitchen': traversable(),
        'kitchen-living': traversable(),
        'living-hall': traversable(),
        'living-landing': blocked('Treppe', { reason: 'stairs' }),
        'landing-bedroom': traversable(),
        'hall-bath': blocked('see photo 12', { reason: 'narrow' }),
        'hall-study': traversable(),
      }),
      QUADRUPEDAL: { ...all(traversable()), ...labels({ 'hall-study': blocked('cannot open door') }) },
      SWEEPER: {},
    },
  });
  return { ...emptyProject('scoring house'), scenes: [scene] };
}

let counter = 0;

/** A prediction as a reader would deliver it. `path` may be a list or an arrow string. */
export function pred(agent: string, question: string, answer: string, path: string[] | string = [], reason = '', more: Partial<Prediction> = {}): Prediction {
  const id = `p${++counter}`;
  const tokens =
    typeof path === 'string'
      ? path
          .split('->')
          .map((t) => t.trim())
          .filter(Boolean)
      : path;
  return {
    id,
    file: 'results/test-model/HOUSE01/out.json',
    location: `/result/${counter}`,
    model: 'test-model',
    scene: 'HOUSE01',
    question,
    agent,
    answer,
    path: tokens,
    reason,
    ...more,
  };
}
