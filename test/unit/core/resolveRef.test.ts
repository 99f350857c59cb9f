import { describe, expect, it } from 'vitest';
import { resolveRef, resolvedWaypoints, unresolvedRefs } from '../../../src/core/questions.ts';
import { navNode, ref } from '../../support/sceneBuilder.ts';

const house = [
  navNode('node_126', 'Living room'),
  navNode('node_128', 'Second floor bedroom'),
  navNode('node_129', 'Kitchen'),
  navNode('node_131', 'Hall - upstairs'),
  navNode('node_140', 'Bathroom'),
  navNode('node_141', 'bathroom'),
];

const resolvesTo = (raw: string) => resolveRef(raw, house).nodeId;

describe('a question names its start and end rooms', () => {
  it('by node id', () => {
    expect(resolveRef('node_129', house)).toEqual({ nodeId: 'node_129', via: 'id' });
  });

  it('by room name, whatever the case and spacing', () => {
    expect(resolveRef('Living room', house)).toEqual({ nodeId: 'node_126', via: 'name' });
    expect(resolvesTo('LIVING ROOM')).toBe('node_126');
    expect(resolvesTo('  second   Floor bedroom ')).toBe('node_128');
    expect(resolvesTo('kitchen\t')).toBe('node_129');
  });

  it('as "id — name" with an em dash', () => {
    expect(resolveRef('node_128 — Second floor bedroom', house)).toEqual({ nodeId: 'node_128', via: 'id-name' });
  });

  it('as "id – name" with an en dash', () => {
    expect(resolveRef('node_128 – Second floor bedroom', house)).toEqual({ nodeId: 'node_128', via: 'id-name' });
  });

  it('as "id - name" with a spaced hyphen', () => {
    expect(resolveRef('node_129 - kitchen', house)).toEqual({ nodeId: 'node_129', via: 'id-name' });
  });

  it('by a room name that itself contains " - "', () => {
    expect(resolveRef('Hall - upstairs', house)).toEqual({ nodeId: 'node_131', via: 'name' });
    expect(resolvesTo('hall - UPSTAIRS')).toBe('node_131');
  });
});

describe('a reference that does not quite fit', () => {
  it('"id — name" whose name is another room still goes to the id, with a warning naming both', () => {
    const r = resolveRef('node_129 — Living room', house);
    expect(r.nodeId).toBe('node_129');
    expect('warning' in r && r.warning).toMatch(/node_129/);
    expect('warning' in r && r.warning).toMatch(/Living room/);
    expect('warning' in r && r.warning).toMatch(/Kitchen/);
  });

  it('a typo such as "Secondd floor bedroom00" stays unresolved instead of snapping to the nearest room', () => {
    const r = resolveRef('Secondd floor bedroom00', house);
    expect(r.nodeId).toBeNull();
    expect('reason' in r && r.reason).toContain('Secondd floor bedroom00');
    expect(resolvesTo('Second floor bedroo')).toBeNull();
    expect(resolvesTo('Node_129')).toBeNull();
  });

  it('a name two rooms share is ambiguous and unresolved, listing both rooms', () => {
    const r = resolveRef('Bathroom', house);
    expect(r.nodeId).toBeNull();
    expect('reason' in r && r.reason).toMatch(/node_140.*node_141/);
  });

  it('"id — name" with an id that is not in the graph is unresolved, even when the name exists', () => {
    const r = resolveRef('node_999 — Kitchen', house);
    expect(r.nodeId).toBeNull();
    expect('reason' in r && r.reason).toContain('node_999');
  });

  it('an unspaced hyphen is not the id-name form', () => {
    expect(resolvesTo('node_129-Kitchen')).toBeNull();
  });

  it('an empty reference is unresolved', () => {
    expect(resolvesTo('   ')).toBeNull();
  });
});

describe('the waypoints of a question', () => {
  const question = {
    start: ref('Kitchen', 'node_129'),
    intermediate: [ref('node_126'), ref('Secondd floor bedroom00', null)],
    end: ref('node_128'),
  };

  it('are unusable as a route when any of them is unresolved, and the unresolved ones are listed verbatim', () => {
    expect(resolvedWaypoints(question)).toBeNull();
    expect(unresolvedRefs(question)).toEqual(['Secondd floor bedroom00']);
  });

  it('run start → intermediates → end once every reference resolves', () => {
    const fixed = { ...question, intermediate: [ref('node_126'), ref('node_131')] };
    expect(resolvedWaypoints(fixed)).toEqual(['node_129', 'node_126', 'node_131', 'node_128']);
    expect(unresolvedRefs(fixed)).toEqual([]);
  });
});
