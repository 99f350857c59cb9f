import type { AgentName } from './agents.ts';
import { segmentKey } from './graph.ts';
import type { Label, LabelTable } from './labels.ts';
import type { Scene } from './project.ts';

/**
 * Set one agent's label of a segment. There is one label per agent per segment: when the segment
 * is already labelled in the other direction only, that label is replaced rather than a second
 * (possibly contradicting) one being added.
 */
export function setLabel(scene: Scene, agent: AgentName, from: string, to: string, label: Label): Scene {
  const table = scene.labels[agent] ?? {};
  const forward = segmentKey(from, to), backward = segmentKey(to, from);
  const key = !(forward in table) && backward in table ? backward : forward;
  return { ...scene, labels: { ...scene.labels, [agent]: { ...table, [key]: label } } };
}

/** Resolve a direction conflict by giving both directions the same label. */
export function resolveConflict(scene: Scene, agent: AgentName, a: string, b: string, keep: Label): Scene {
  const table = { ...(scene.labels[agent] ?? {}) };
  table[segmentKey(a, b)] = keep;
  table[segmentKey(b, a)] = keep;
  const labels: LabelTable = { ...scene.labels, [agent]: table };
  return { ...scene, labels };
}
