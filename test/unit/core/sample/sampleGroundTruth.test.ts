import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, type AgentProfile } from '../../../../src/core/agents.ts';
import { judgeEdge, type RuleId } from '../../../../src/core/rules.ts';
import { SAMPLE_HOUSE } from '../../../../src/core/sample/houseSpec.ts';
import { buildSampleRelease, LABEL_TIMESTAMP } from '../../../../src/core/sample/sampleRelease.ts';

// The traversability rules themselves are tested in rules.test.ts; here, the sample house's labels.
const agent = (name: string): AgentProfile => DEFAULT_PROFILES.find((p) => p.name === name)!;

// The sample house edge by edge: the rule that stops each agent, or ok. Written by hand from the
// obstacle list in houseSpec.ts and the profiles; the labels in the release must agree.
type Outcome = 'ok' | RuleId;
const HOUSE_TABLE: Record<string, [human: Outcome, wheelchair: Outcome, humanoid: Outcome, quadrupedal: Outcome, sweeper: Outcome]> = {
  'Entrance hall|Living room': ['ok', 'ok', 'ok', 'ok', 'ok'], // 1.20 m doorway
  'Living room|Kitchen': ['ok', 'ok', 'width', 'ok', 'ok'], // 0.90 m, 1 cm sill
  'Kitchen|Utility room': ['ok', 'turning', 'width', 'ok', 'ok'], // 0.80 m L-shaped corner
  'Entrance hall|Back hall': ['ok', 'ok', 'width', 'ok', 'ok'], // 0.80 m corridor
  'Back hall|Study': ['ok', 'sill', 'width', 'ok', 'ok'], // 0.80 m, 2 cm sill
  'Entrance hall|Bathroom': ['ok', 'ok', 'width', 'closed-door', 'closed-door'], // 0.80 m, closed door
  'Living room|Stair foot': ['ok', 'ok', 'ok', 'ok', 'ok'], // 2.00 m open
  'Entrance hall|Lift lobby': ['ok', 'ok', 'ok', 'ok', 'ok'], // 1.20 m doorway
  'Stair foot|Landing': ['ok', 'stairs', 'stairs', 'ok', 'stairs'],
  'Lift lobby|Upper lift lobby': ['ok', 'ok', 'ok', 'lift', 'lift'],
  'Landing|Upper hall': ['ok', 'ok', 'ok', 'ok', 'ok'], // 1.80 m open
  'Upper lift lobby|Upper hall': ['ok', 'ok', 'ok', 'ok', 'ok'], // 1.20 m doorway
  'Upper hall|Bedroom 1': ['ok', 'width', 'width', 'ok', 'ok'], // 0.70 m doorway
  'Upper hall|Bedroom 2': ['ok', 'sill', 'ok', 'ok', 'sill'], // 1.20 m, 5 cm sill
};
const AGENTS = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'] as const;

describe("the sample house's labels", () => {
  const { scene, features } = buildSampleRelease(SAMPLE_HOUSE);
  const name = new Map(scene.graph.nodes.map((n) => [n.id, n.name]));

  it('cover every edge with the hand-written outcome for every agent', () => {
    expect(scene.graph.edges.map((e) => `${name.get(e.from)}|${name.get(e.to)}`)).toEqual(Object.keys(HOUSE_TABLE));
    for (const e of scene.graph.edges) {
      const feature = features.edges[e.from < e.to ? `${e.from}|${e.to}` : `${e.to}|${e.from}`]!;
      HOUSE_TABLE[`${name.get(e.from)}|${name.get(e.to)}`]!.forEach((outcome, i) => {
        const profile = agent(AGENTS[i]!);
        const label = scene.labels[profile.name]![`${e.from}|${e.to}`]!;
        expect({ edge: e.id, agent: profile.name, traversable: label.traversable }).toEqual({ edge: e.id, agent: profile.name, traversable: outcome === 'ok' });
        expect(judgeEdge(profile, feature).failedRule ?? 'ok').toBe(outcome);
      });
    }
  });

  it('are written once per edge as from|to in graph order, by the generator at a fixed time, for no question', () => {
    for (const a of AGENTS) {
      expect(Object.keys(scene.labels[a]!)).toEqual(scene.graph.edges.map((e) => `${e.from}|${e.to}`));
      for (const label of Object.values(scene.labels[a]!)) {
        expect(label).toEqual({ traversable: label.traversable, note: label.note, timestamp: LABEL_TIMESTAMP, annotator: 'generator' });
        expect(label.note).toMatch(label.traversable ? /^Clear: / : /^(Stairs|Lift|Closed door|Sill|Narrow passage|Turning space)/);
      }
    }
  });

  it('the human passes everything; the agents differ on most obstacles', () => {
    const traversable = (a: string) => Object.values(scene.labels[a]!).filter((l) => l.traversable).length;
    expect(AGENTS.map(traversable)).toEqual([14, 9, 7, 12, 10]);
  });
});
