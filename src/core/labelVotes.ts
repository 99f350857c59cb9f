import { z } from 'zod';
import type { AgentName } from './agents.ts';
import { parseSegmentKey, undirectedKey } from './graph.ts';
import { LabelSchema, type Label, type LabelTable } from './labels.ts';

/**
 * Labels made by a team. Every label is one annotator's vote (its `annotator`, '' when unnamed —
 * the labels of an imported release usually are); two annotators' labels of one agent × segment
 * are both kept. The label in force (`scene.labels`, what every view, check and export reads) is:
 * an adjudicator's decision when there is one; else the named annotators' common judgement (the
 * latest of their labels) when they agree; else, while they disagree, the earliest named label,
 * and the segment is disputed (listed for adjudication). An unnamed label counts only where no
 * named annotator has labelled the segment: it is the baseline a team relabels, not a voice in a
 * dispute.
 */

/** agent → directed segment key → annotator ('' = unnamed) → that annotator's label. */
export type VoteTable = Record<AgentName, Record<string, Record<string, Label>>>;

export const LabelAdjudicationSchema = z.object({
  /** The label that decides the segment. */
  label: LabelSchema,
  /** Who decided. */
  by: z.string(),
  /** ISO time of the decision. */
  at: z.string(),
});
export type LabelAdjudication = z.infer<typeof LabelAdjudicationSchema>;

/** agent → directed segment key → the adjudicator's decision. */
export type AdjudicationTable = Record<AgentName, Record<string, LabelAdjudication>>;

export const VoteTableSchema = z.record(z.string(), z.record(z.string(), z.record(z.string(), LabelSchema)));
export const AdjudicationTableSchema = z.record(z.string(), z.record(z.string(), LabelAdjudicationSchema));

/** The parts of a scene that hold labels. */
export interface LabelledScene {
  labels: LabelTable;
  votes?: VoteTable;
  adjudications?: AdjudicationTable;
}

export const authorOf = (label: Pick<Label, 'annotator'>): string => label.annotator?.trim() ?? '';

const derived = new WeakMap<LabelTable, VoteTable>();

/**
 * The scene's votes. A scene without a vote table (read from a release, or made before labels
 * had authors) holds one vote per label, by the label's own annotator.
 */
export function votesOf(scene: LabelledScene): VoteTable {
  if (scene.votes) return scene.votes;
  let votes = derived.get(scene.labels);
  if (!votes) {
    votes = {};
    for (const [agent, table] of Object.entries(scene.labels)) {
      const perSeg: Record<string, Record<string, Label>> = {};
      for (const [seg, label] of Object.entries(table)) perSeg[seg] = { [authorOf(label)]: label };
      votes[agent] = perSeg;
    }
    derived.set(scene.labels, votes);
  }
  return votes;
}

export const adjudicationsOf = (scene: LabelledScene): AdjudicationTable => scene.adjudications ?? {};

const stamp = (l: Label) => l.timestamp ?? '';

/** The named votes of one segment, earliest first (ties by annotator name, so every member of a team orders them alike). */
export function namedVotes(votes: Record<string, Label> | undefined): [string, Label][] {
  return Object.entries(votes ?? {})
    .filter(([a]) => a !== '')
    .sort(([a, x], [b, y]) => (stamp(x) < stamp(y) ? -1 : stamp(x) > stamp(y) ? 1 : a < b ? -1 : a > b ? 1 : 0));
}

/** Whether the named votes of a segment disagree on traversability. */
export function disagree(votes: Record<string, Label> | undefined): boolean {
  const named = namedVotes(votes);
  return named.some(([, l]) => l.traversable !== named[0]![1].traversable);
}

/** The label in force for one segment (see the module comment); undefined when nobody labelled it. */
export function labelInForce(votes: Record<string, Label> | undefined, adjudication: LabelAdjudication | undefined): Label | undefined {
  if (adjudication) return adjudication.label;
  const named = namedVotes(votes);
  if (named.length === 0) return votes?.[''];
  return (disagree(votes) ? named[0]! : named[named.length - 1]!)[1];
}

/** The labels in force of one agent's segments, in the vote table's order. */
function inForceTable(perSeg: Record<string, Record<string, Label>>, adjudicated: Record<string, LabelAdjudication> | undefined): Record<string, Label> {
  const out: Record<string, Label> = {};
  for (const [seg, votes] of Object.entries(perSeg)) {
    const label = labelInForce(votes, adjudicated?.[seg]);
    if (label) out[seg] = label;
  }
  return out;
}

/** A scene's labels in force, from its votes and adjudications. */
export function labelsInForce(votes: VoteTable, adjudications: AdjudicationTable): LabelTable {
  const out: LabelTable = {};
  for (const [agent, perSeg] of Object.entries(votes)) out[agent] = inForceTable(perSeg, adjudications[agent]);
  return out;
}

/** The scene with the votes of one agent × segment changed, and its label in force with them. */
export function withSegmentVotes<S extends LabelledScene>(
  scene: S,
  agent: AgentName,
  seg: string,
  change: (votes: Record<string, Label>) => Record<string, Label>,
): S {
  const votes = votesOf(scene);
  const table = votes[agent] ?? {};
  const before = table[seg] ?? {};
  const after = change(before);
  if (after === before) return scene;
  const nextTable = { ...table };
  if (Object.keys(after).length) nextTable[seg] = after;
  else delete nextTable[seg];
  const nextVotes = { ...votes, [agent]: nextTable };
  const labelsTable = { ...(scene.labels[agent] ?? {}) };
  const inForce = labelInForce(after, scene.adjudications?.[agent]?.[seg]);
  if (inForce) labelsTable[seg] = inForce;
  else delete labelsTable[seg];
  // Keep the labels' order the votes' order, so a new segment goes last in both.
  const ordered: Record<string, Label> = {};
  for (const k of Object.keys(nextTable)) if (labelsTable[k]) ordered[k] = labelsTable[k];
  return { ...scene, votes: nextVotes, labels: { ...scene.labels, [agent]: ordered } };
}

/** Record one annotator's label (replacing their earlier one of that segment). */
export function castVote<S extends LabelledScene>(scene: S, agent: AgentName, seg: string, label: Label): S {
  const author = authorOf(label);
  return withSegmentVotes(scene, agent, seg, (votes) => (votes[author] === label ? votes : { ...votes, [author]: label }));
}

/** Decide a segment (or, with null, withdraw the decision); its label in force follows. */
export function adjudicate<S extends LabelledScene>(scene: S, agent: AgentName, seg: string, decision: LabelAdjudication | null): S {
  const adjudications = adjudicationsOf(scene);
  const table = { ...(adjudications[agent] ?? {}) };
  if (decision) table[seg] = decision;
  else if (seg in table) delete table[seg];
  else return scene;
  const next = { ...scene, votes: votesOf(scene), adjudications: { ...adjudications, [agent]: table } };
  return withSegmentVotes(next, agent, seg, (v) => ({ ...v }));
}

/**
 * Structural changes to every label table of a scene at once: the same change applied to the
 * labels in force, the votes and the decisions (dropping the segments of a deleted edge, moving a
 * renamed agent's labels).
 */
export function mapLabelTables<S extends LabelledScene>(
  scene: S,
  fn: <T>(perAgent: Record<AgentName, Record<string, T>>) => Record<AgentName, Record<string, T>>,
): S {
  const labels = fn(scene.labels);
  if (!scene.votes && !scene.adjudications) return labels === scene.labels ? scene : { ...scene, labels };
  return { ...scene, labels, votes: fn(votesOf(scene)), adjudications: fn(adjudicationsOf(scene)) };
}

/** Per-agent tables without the segments of the removed undirected edges (`a|b`, a < b). */
export function dropSegments(removed: ReadonlySet<string>) {
  return <T>(perAgent: Record<AgentName, Record<string, T>>): Record<AgentName, Record<string, T>> => {
    if (!removed.size) return perAgent;
    const out: Record<AgentName, Record<string, T>> = {};
    for (const [agent, table] of Object.entries(perAgent)) {
      out[agent] = Object.fromEntries(
        Object.entries(table).filter(([key]) => {
          const seg = parseSegmentKey(key);
          return !seg || !removed.has(undirectedKey(seg.from, seg.to));
        }),
      );
    }
    return out;
  };
}

/** Per-agent tables with one agent's entries moved to a new name. */
export function renameAgent(from: AgentName, to: AgentName) {
  return <T>(perAgent: Record<AgentName, Record<string, T>>): Record<AgentName, Record<string, T>> => {
    if (!(from in perAgent)) return perAgent;
    const { [from]: moved, ...rest } = perAgent;
    return { ...rest, [to]: moved! };
  };
}

/** A segment whose named annotators disagree and which nobody has decided yet. */
export interface LabelDispute {
  agent: AgentName;
  seg: string;
  /** The named votes, earliest first. */
  votes: [string, Label][];
}

/** The scene's disputed segments, waiting for adjudication. */
export function labelDisputes(scene: LabelledScene): LabelDispute[] {
  if (!scene.votes) return []; // derived votes have one author per segment
  const out: LabelDispute[] = [];
  const decided = adjudicationsOf(scene);
  for (const [agent, perSeg] of Object.entries(scene.votes)) {
    for (const [seg, votes] of Object.entries(perSeg)) {
      if (decided[agent]?.[seg] || !disagree(votes)) continue;
      out.push({ agent, seg, votes: namedVotes(votes) });
    }
  }
  return out;
}

/**
 * Make a scene read from a file or storage consistent: every label in `labels` that no vote
 * accounts for becomes its annotator's vote, and `labels` is recomputed from the votes. A scene
 * without votes or decisions is already consistent (its labels are its votes).
 */
export function normalizeVotes<S extends LabelledScene>(scene: S): S {
  if (!scene.votes && !scene.adjudications) return scene;
  const votes: VoteTable = {};
  for (const [agent, perSeg] of Object.entries(scene.votes ?? {})) votes[agent] = { ...perSeg };
  for (const [agent, table] of Object.entries(scene.labels)) {
    const perSeg = (votes[agent] ??= {});
    for (const [seg, label] of Object.entries(table)) {
      const existing = perSeg[seg] ?? {};
      if (!Object.values(existing).some((l) => sameLabel(l, label))) perSeg[seg] = { ...existing, [authorOf(label)]: existing[authorOf(label)] ?? label };
    }
  }
  const adjudications = scene.adjudications ?? {};
  return { ...scene, votes, adjudications, labels: labelsInForce(votes, adjudications) };
}

const sameLabel = (a: Label, b: Label) => a === b || JSON.stringify(a) === JSON.stringify(b);
