import type { AgentName } from './agents.ts';
import { segmentKey } from './graph.ts';
import type { Label } from './labels.ts';
import { castVote, votesOf } from './labelVotes.ts';
import type { Scene } from './project.ts';

/**
 * Set one agent's label of a segment, as its annotator's vote (labelVotes.ts). There is one label per agent per segment and annotator: when the segment
 * is already labelled in the other direction only, that label is replaced rather than a second
 * (possibly contradicting) one being added.
 */
export function setLabel(scene: Scene, agent: AgentName, from: string, to: string, label: Label): Scene {
  const table = votesOf(scene)[agent] ?? {};
  const forward = segmentKey(from, to),
    backward = segmentKey(to, from);
  const key = !(forward in table) && backward in table ? backward : forward;
  return castVote(scene, agent, key, label);
}

/** Resolve a direction conflict by giving both directions the same label. */
export function resolveConflict(scene: Scene, agent: AgentName, a: string, b: string, keep: Label): Scene {
  return castVote(castVote(scene, agent, segmentKey(a, b), keep), agent, segmentKey(b, a), keep);
}
