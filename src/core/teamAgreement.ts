import { labelAgreement, type LabelAgreement } from './interRater.ts';
import { labelDisputes, votesOf } from './labelVotes.ts';
import type { LabelTable } from './labels.ts';
import type { Project } from './project.ts';

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
  for (const scene of project.scenes) {
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
  return out;
}

export function teamAgreement(project: Pick<Project, 'scenes'>): TeamAgreement {
  const tables = annotatorTables(project);
  const annotators = [...tables.keys()].sort();
  const pairs: TeamAgreement['pairs'] = [];
  for (let i = 0; i < annotators.length; i++) {
    for (let j = i + 1; j < annotators.length; j++) {
      const agreement = labelAgreement(tables.get(annotators[i]!)!, tables.get(annotators[j]!)!);
      if (agreement.overall.compared > 0) pairs.push({ a: annotators[i]!, b: annotators[j]!, agreement });
    }
  }
  const kappas = pairs.map((p) => p.agreement.overall.cohen.kappa).filter((k): k is number => k !== null);
  return {
    annotators, pairs,
    light: kappas.length ? kappas.reduce((s, k) => s + k, 0) / kappas.length : null,
    disputes: project.scenes.reduce((n, s) => n + labelDisputes(s).length, 0),
  };
}
