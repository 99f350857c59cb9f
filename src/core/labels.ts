import { z } from 'zod';
import type { AgentName } from './agents.ts';
import { REASONS } from './rules.ts';
import { parseSegmentKey, segmentKey } from './graph.ts';

/**
 * One agent's traversability judgement of one directed segment, with its provenance.
 * CapNav labels segments in the direction a path walks them; a segment labelled in one
 * direction only is read as the same judgement for the other direction.
 */
export const LabelSchema = z.object({
  traversable: z.boolean(),
  /** The annotator's reason; required by convention when not traversable. */
  note: z.string().default(''),
  /** ISO time the label was confirmed. */
  timestamp: z.string().optional(),
  /** Text of the question during which it was labelled (absent on auto-approved labels). */
  question: z.string().optional(),
  /** Who confirmed it (Traversa provenance; not in the CapNav release files). */
  annotator: z.string().optional(),
  /** Why not traversable, as a category (Traversa; the note carries the words). */
  reason: z.enum(REASONS).optional(),
  /** How the label came about: an annotator's decision, the auto-approved unrestricted human, a generator. */
  source: z.enum(['annotator', 'auto-approved', 'generator']).optional(),
  /** What the decision rested on: measured values, the suggestion shown, the driven trajectory. */
  evidence: z
    .object({
      measured: z.record(z.string(), z.number()).optional(),
      suggestion: z.object({ traversable: z.boolean(), reason: z.enum(REASONS).nullable(), note: z.string() }).optional(),
      /** World positions [x, y, z] of a drive, thinned to every ~10 cm. */
      trajectory: z.array(z.tuple([z.number(), z.number(), z.number()])).optional(),
      contact: z
        .object({ kind: z.string(), message: z.string(), point: z.tuple([z.number(), z.number(), z.number()]), heightM: z.number().optional() })
        .optional(),
    })
    .optional(),
  /** Fields of the source file Traversa does not model, written back unchanged. */
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type Label = z.infer<typeof LabelSchema>;

/** agent → directed segment key (`from|to`) → label. */
export type LabelTable = Record<AgentName, Record<string, Label>>;

/**
 * The label that applies when `agent` walks from `from` to `to`: the segment's own direction,
 * else the reverse direction's label. Undefined when neither exists (counts as not traversable).
 */
export function labelFor(labels: LabelTable, agent: AgentName, from: string, to: string): Label | undefined {
  const table = labels[agent];
  if (!table) return undefined;
  return table[segmentKey(from, to)] ?? table[segmentKey(to, from)];
}

export function isTraversable(labels: LabelTable, agent: AgentName, from: string, to: string): boolean {
  return labelFor(labels, agent, from, to)?.traversable === true;
}

export interface DirectionConflict {
  agent: AgentName;
  /** The segment in `a|b` order with a < b. */
  a: string;
  b: string;
  forward: Label; // a → b
  backward: Label; // b → a
}

/** Segments whose two directions are both labelled and disagree, per agent. */
export function directionConflicts(labels: LabelTable): DirectionConflict[] {
  const out: DirectionConflict[] = [];
  for (const [agent, table] of Object.entries(labels)) {
    for (const [key, forward] of Object.entries(table)) {
      const seg = parseSegmentKey(key);
      if (!seg || !(seg.from < seg.to)) continue;
      const backward = table[segmentKey(seg.to, seg.from)];
      if (backward && backward.traversable !== forward.traversable) {
        out.push({ agent, a: seg.from, b: seg.to, forward, backward });
      }
    }
  }
  return out;
}

export type EdgeLabelState = 'traversable' | 'blocked' | 'unlabelled' | 'conflict';

/** How an undirected edge stands for an agent: both directions considered. */
export function edgeLabelState(labels: LabelTable, agent: AgentName, a: string, b: string): EdgeLabelState {
  const ab = labels[agent]?.[segmentKey(a, b)];
  const ba = labels[agent]?.[segmentKey(b, a)];
  if (!ab && !ba) return 'unlabelled';
  if (ab && ba && ab.traversable !== ba.traversable) return 'conflict';
  return (ab ?? ba)!.traversable ? 'traversable' : 'blocked';
}
