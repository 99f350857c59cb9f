import type { NavNode } from '../../src/core/graph.ts';
import { emptyProject, type Project } from '../../src/core/project.ts';
import { navQuestion, ref, sceneOf } from './sceneBuilder.ts';

const node = (id: string, name: string, x: number, y: number, z: number): NavNode => ({ id, name, description: '', position: { x, y, z }, floor: null });

/**
 * A two-storey house: hall and kitchen downstairs, stairs from the stair foot to the landing, the
 * bedroom upstairs (3 m up, directly above the hall). Questions: hall → kitchen, hall → bedroom
 * (up the stairs), landing → bedroom.
 */
export function twoStoreyProject(): Project {
  const scene = sceneOf({
    id: 'HOUSE',
    graph: {
      nodes: [
        node('hall', 'Hall', 0, 0, 0),
        node('kitchen', 'Kitchen', 4, 0, 0),
        node('foot', 'Stair foot', 0, 0, 4),
        node('landing', 'Landing', 0, 3, 4),
        node('bedroom', 'Bedroom', 0, 3, 0),
      ],
      edges: [
        { id: 'e1', from: 'hall', to: 'kitchen' },
        { id: 'e2', from: 'hall', to: 'foot' },
        { id: 'e3', from: 'foot', to: 'landing' },
        { id: 'e4', from: 'landing', to: 'bedroom' },
      ],
    },
    questions: [
      navQuestion('Can [Agent] move from the hall to the kitchen?', ref('hall'), ref('kitchen')),
      navQuestion('Can [Agent] move from the hall to the bedroom upstairs?', ref('hall'), ref('bedroom')),
      navQuestion('Can [Agent] move from the landing to the bedroom?', ref('landing'), ref('bedroom')),
    ],
  });
  return { ...emptyProject('two storeys'), scenes: [scene] };
}
