import { describe, expect, it } from 'vitest';
import type { NavGraph, NavNode } from '../../../src/core/graph.ts';
import { impliedRoute } from '../../../src/core/impliedRoute.ts';
import { navEdges, ref } from '../../support/sceneBuilder.ts';

const node = (id: string, name: string, x: number, z: number, y = 0): NavNode => ({ id, name, description: '', position: { x, y, z }, floor: null });

/**
 * A small house: the hall opens to the living room and to a long corridor; the living room leads
 * to the kitchen, and so does the corridor round the back (longer); the stair foot off the living
 * room climbs to the landing. The garage stands alone.
 */
const house: NavGraph = {
  nodes: [
    node('n1', 'Hall', 0, 0),
    node('n2', 'Living room', 4, 0),
    node('n3', 'Kitchen', 8, 0),
    node('n4', 'Corridor', 0, 6),
    node('n5', 'Back hall', 8, 6),
    node('n6', 'Stair foot', 4, 3),
    node('n7', 'Landing', 4, 3, 3),
    node('n8', 'Garage', 20, 20),
  ],
  edges: navEdges('n1-n2', 'n2-n3', 'n1-n4', 'n4-n5', 'n5-n3', 'n2-n6', 'n6-n7'),
};

describe('the route a question implies', () => {
  it('from start to end the shortest way through the graph (by length, not by hops)', () => {
    const r = impliedRoute(house, { start: ref('n1'), intermediate: [], end: ref('n3') });
    expect(r.nodes).toEqual(['n1', 'n2', 'n3']);
    expect(r.legs).toEqual([{ from: 'n1', to: 'n3', path: ['n1', 'n2', 'n3'] }]);
    expect(r.unresolved).toEqual([]);
  });

  it('through the intermediate nodes it names, in order, even where that is the long way round', () => {
    const r = impliedRoute(house, { start: ref('n1'), intermediate: [ref('Back hall', 'n5')], end: ref('n3') });
    expect(r.nodes).toEqual(['n1', 'n4', 'n5', 'n3']);
    expect(r.legs.map((l) => l.path)).toEqual([
      ['n1', 'n4', 'n5'],
      ['n5', 'n3'],
    ]);
  });

  it('up the stairs to the landing: a route between floors', () => {
    expect(impliedRoute(house, { start: ref('n3'), intermediate: [], end: ref('n7') }).nodes).toEqual(['n3', 'n2', 'n6', 'n7']);
  });

  it('names a reference that matches no node, says why, and joins the waypoints that resolve', () => {
    const r = impliedRoute(house, { start: ref('n1'), intermediate: [ref('Attic', null)], end: ref('Kitchen', 'n3') });
    expect(r.unresolved).toEqual([{ role: 'intermediate', raw: 'Attic', reason: '"Attic" matches no node id or name' }]);
    expect(r.nodes).toEqual(['n1', 'n2', 'n3']);
    expect(r.waypoints.map((w) => w.nodeId)).toEqual(['n1', null, 'n3']);
  });

  it('a reference stored as resolved to a node the graph no longer has is unresolved, not drawn', () => {
    const r = impliedRoute(house, { start: ref('n1'), intermediate: [], end: ref('Pantry', 'n99') });
    expect(r.nodes).toEqual(['n1']);
    expect(r.legs).toEqual([]);
    expect(r.unresolved).toEqual([{ role: 'end', raw: 'Pantry', reason: '"Pantry" matches no node id or name' }]);
  });

  it('a leg the graph does not connect has no path, and the route still reaches the next waypoint', () => {
    const r = impliedRoute(house, { start: ref('n2'), intermediate: [ref('n8')], end: ref('n1') });
    expect(r.legs).toEqual([
      { from: 'n2', to: 'n8', path: null },
      { from: 'n8', to: 'n1', path: null },
    ]);
    expect(r.nodes).toEqual(['n2', 'n8', 'n1']);
  });

  it('a waypoint named twice in a row is walked once', () => {
    expect(impliedRoute(house, { start: ref('n1'), intermediate: [ref('n1')], end: ref('n2') }).nodes).toEqual(['n1', 'n2']);
  });
});
