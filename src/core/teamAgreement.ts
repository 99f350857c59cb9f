import type { AgentName } from './agents.ts';
import { agentTally, agreementOfTallies, type AgentTally, type LabelAgreement } from './interRater.ts';
import { labelDisputes, votesOf } from './labelVotes.ts';
import type { LabelTable } from './labels.ts';
import type { Project, Scene } from './project.ts';

/**
 * Agreement across a team that labelled the same segments: Cohen's κ for every pair of named
 * annotators over the segments both labelled (all scenes pooled, per agent and overall, as
 * `labelAgreement` counts them), and Light's κ — the mean of the pairwise κs — for the team. It
 * is computed from the votes themselves, so it follows every label as it arrives.
 */
export interface TeamAgreement {
  annotators: string[];
  pairs: { a: string; b: string; agreement: LabelAgreement }[];
  /** Light's κ: the mean of the defined pairwise overall κs (null with none). */
  light: number | null;
  /** Segments whose annotators disagree and nobody has decided yet. */
  disputes: number;
}

/** Each named annotator's own labels, all scenes in one table (segment keys carry the scene). */
export function annotatorTables(project: Pick<Project, 'scenes'>): Map<string, LabelTable> {
  const out = new Map<string, LabelTable>();
  for (const scene of project.scenes) addSceneVotes(out, scene);
  return out;
}

function addSceneVotes(out: Map<string, LabelTable>, scene: Scene): void {
  for (const [agent, perSeg] of Object.entries(votesOf(scene))) {
    for (const [seg, votes] of Object.entries(perSeg)) {
      const bar = seg.indexOf('|');
      if (bar < 0) continue;
      const key = `${scene.id}/${seg.slice(0, bar)}|${scene.id}/${seg.slice(bar + 1)}`;
      for (const [author, label] of Object.entries(votes)) {
        if (!author) continue;
        let table = out.get(author);
        if (!table) out.set(author, (table = {}));
        (table[agent] ??= {})[key] = label;
      }
    }
  }
}

/**
 * One scene's part of the team's agreement: its annotators' tables, its disputes, and (filled in
 * as asked for) each pair's per-agent tallies. Kept per scene object: the document is immutable
 * and a label replaces only its own scene, so after a label only that scene is counted again —
 * at 1,000 scenes pooling every scene's votes cost ~20 ms per keypress.
 */
interface SceneTeam {
  tables: Map<string, LabelTable>;
  disputes: number;
  pairs: Map<string, Map<AgentName, AgentTally>>;
}

const perScene = new WeakMap<Scene, SceneTeam>();

function sceneTeam(scene: Scene): SceneTeam {
  let t = perScene.get(scene);
  if (!t) {
    const tables = new Map<string, LabelTable>();
    addSceneVotes(tables, scene);
    perScene.set(scene, (t = { tables, disputes: labelDisputes(scene).length, pairs: new Map() }));
  }
  return t;
}

/** A pair's per-agent tallies in one scene (none for an agent neither labelled there). */
function pairTallies(team: SceneTeam, a: string, b: string): Map<AgentName, AgentTally> {
  const key = JSON.stringify([a, b]);
  let tallies = team.pairs.get(key);
  if (!tallies) {
    const ta = team.tables.get(a) ?? {},
      tb = team.tables.get(b) ?? {};
    tallies = new Map();
    for (const agent of new Set([...Object.keys(ta), ...Object.keys(tb)])) tallies.set(agent, agentTally(ta[agent] ?? {}, tb[agent] ?? {}));
    team.pairs.set(key, tallies);
  }
  return tallies;
}

export function teamAgreement(project: Pick<Project, 'scenes'>): TeamAgreement {
  const scenes = project.scenes.map(sceneTeam);
  // Each annotator's agents in the order the pooled table would hold them (an object's key order).
  const agentsOf = new Map<string, Record<string, true>>();
  for (const s of scenes) {
    for (const [author, table] of s.tables) {
      let seen = agentsOf.get(author);
      if (!seen) agentsOf.set(author, (seen = {}));
      for (const agent of Object.keys(table)) seen[agent] = true;
    }
  }
  const annotators = [...agentsOf.keys()].sort();
  const pairs: TeamAgreement['pairs'] = [];
  for (let i = 0; i < annotators.length; i++) {
    for (let j = i + 1; j < annotators.length; j++) {
      const a = annotators[i]!,
        b = annotators[j]!;
      const agents = [...new Set([...Object.keys(agentsOf.get(a)!), ...Object.keys(agentsOf.get(b)!)])];
      const parts = new Map<AgentName, AgentTally[]>(agents.map((agent) => [agent, []]));
      for (const s of scenes) {
        if (!s.tables.has(a) || !s.tables.has(b)) continue; // nothing to compare in this scene
        for (const [agent, tally] of pairTallies(s, a, b)) parts.get(agent)!.push(tally);
      }
      const agreement = agreementOfTallies([...parts]);
      if (agreement.overall.compared > 0) pairs.push({ a, b, agreement });
    }
  }
  const kappas = pairs.map((p) => p.agreement.overall.cohen.kappa).filter((k): k is number => k !== null);
  return {
    annotators,
    pairs,
    light: kappas.length ? kappas.reduce((s, k) => s + k, 0) / kappas.length : null,
    disputes: scenes.reduce((n, s) => n + s.disputes, 0),
  };
}
