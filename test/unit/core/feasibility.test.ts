import { describe, expect, it } from 'vitest';
import { isFeasible } from '../../../src/core/feasibility.ts';
import { labelFor } from '../../../src/core/labels.ts';
import { readRelease } from '../../../src/formats/capnav/read.ts';
import { houseScene, releaseFiles } from '../../support/releaseBuilder.ts';
import { blocked, navGraph, traversable } from '../../support/sceneBuilder.ts';

// Ground floor: hall – kitchen – living room, stairs from the living room up to the landing.
const house = navGraph(['hall-kitchen', 'kitchen-living', 'living-landing']);

describe('can the agent get from one room to another', () => {
  it('yes, when every hop of the way is labelled traversable for it', () => {
    const labels = { WHEELCHAIR: { 'hall|kitchen': traversable(), 'kitchen|living': traversable() } };
    expect(isFeasible(house, labels, 'WHEELCHAIR', 'hall', 'living')).toBe(true);
  });

  it('no, when one hop has no label at all: a missing label counts as not traversable', () => {
    const labels = { WHEELCHAIR: { 'hall|kitchen': traversable() } };
    expect(isFeasible(house, labels, 'WHEELCHAIR', 'hall', 'living')).toBe(false);
  });

  it('no, for an agent with no labels in the scene', () => {
    const labels = { HUMAN: { 'hall|kitchen': traversable(), 'kitchen|living': traversable() } };
    expect(isFeasible(house, labels, 'SWEEPER', 'hall', 'living')).toBe(false);
  });

  it('no, when the stairs are labelled blocked for it', () => {
    const labels = { WHEELCHAIR: { 'hall|kitchen': traversable(), 'kitchen|living': traversable(), 'living|landing': blocked('Stairs') } };
    expect(isFeasible(house, labels, 'WHEELCHAIR', 'hall', 'landing')).toBe(false);
    expect(isFeasible(house, labels, 'WHEELCHAIR', 'hall', 'living')).toBe(true);
  });

  it('yes, trivially, when start and end are the same room, even without labels', () => {
    expect(isFeasible(house, {}, 'SWEEPER', 'kitchen', 'kitchen')).toBe(true);
  });

  it('no, when the start or end room is not in the graph', () => {
    const labels = { HUMAN: { 'hall|kitchen': traversable() } };
    expect(isFeasible(house, labels, 'HUMAN', 'hall', 'garage')).toBe(false);
    expect(isFeasible(house, labels, 'HUMAN', 'garage', 'garage')).toBe(false);
  });

  it('yes, by a detour when the direct doorway is blocked', () => {
    // hall–living directly is a narrow door; going round through the kitchen works.
    const ring = navGraph(['hall-living', 'hall-kitchen', 'kitchen-living']);
    const labels = { WHEELCHAIR: { 'hall|living': blocked('Narrow door'), 'hall|kitchen': traversable(), 'living|kitchen': traversable() } };
    expect(isFeasible(ring, labels, 'WHEELCHAIR', 'hall', 'living')).toBe(true);
    const noDetour = { WHEELCHAIR: { ...labels.WHEELCHAIR, 'living|kitchen': blocked('Step') } };
    expect(isFeasible(ring, noDetour, 'WHEELCHAIR', 'hall', 'living')).toBe(false);
  });
});

describe('a segment is judged in the direction the agent walks it', () => {
  // Down the stairs is fine for the quadruped; up is not.
  const stairs = navGraph(['landing-living']);
  const labels = { QUADRUPEDAL: { 'landing|living': traversable('Goes down'), 'living|landing': blocked('Cannot climb') } };

  it('walking landing → living room uses the landing|living label', () => {
    expect(isFeasible(stairs, labels, 'QUADRUPEDAL', 'landing', 'living')).toBe(true);
    expect(labelFor(labels, 'QUADRUPEDAL', 'landing', 'living')?.note).toBe('Goes down');
  });

  it('walking living room → landing uses the living|landing label', () => {
    expect(isFeasible(stairs, labels, 'QUADRUPEDAL', 'living', 'landing')).toBe(false);
    expect(labelFor(labels, 'QUADRUPEDAL', 'living', 'landing')?.note).toBe('Cannot climb');
  });

  it('a segment labelled in one direction only counts for both directions', () => {
    const oneWay = { QUADRUPEDAL: { 'landing|living': traversable() } };
    expect(isFeasible(stairs, oneWay, 'QUADRUPEDAL', 'living', 'landing')).toBe(true);
    const oneWayBlocked = { QUADRUPEDAL: { 'living|landing': blocked() } };
    expect(isFeasible(stairs, oneWayBlocked, 'QUADRUPEDAL', 'landing', 'living')).toBe(false);
  });
});

describe('the humanoid robot', () => {
  it('labelled under ROBOT in the traverse file is planned as HUMANOID', () => {
    const scene = houseScene();
    const { project } = readRelease(releaseFiles([scene]));
    const labels = project!.scenes[0]!.labels;
    expect(Object.keys(labels)).toContain('HUMANOID');
    expect(Object.keys(labels)).not.toContain('ROBOT');
    const graph = project!.scenes[0]!.graph;
    // The robot's labels: hall–living and the floors above are fine, the stairs are not.
    expect(isFeasible(graph, labels, 'HUMANOID', 'node_1', 'node_3')).toBe(true);
    expect(isFeasible(graph, labels, 'HUMANOID', 'node_1', 'node_8')).toBe(false);
    expect(isFeasible(graph, labels, 'HUMANOID', 'node_5', 'node_8')).toBe(true);
    expect(isFeasible(graph, labels, 'ROBOT', 'node_1', 'node_3')).toBe(false);
  });
});
