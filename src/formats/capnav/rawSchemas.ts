import { z } from 'zod';

/**
 * The CapNav release files as they really are (as the shared CapNav format notes beside the repository describe them, ../shared/docs/capnav-formats.md):
 * loose objects, so fields we do not model survive a round trip.
 */
export const RawNode = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().optional(),
  position: z.looseObject({ x: z.number(), y: z.number(), z: z.number() }),
});
export const RawEdge = z.looseObject({ id: z.string().min(1), from: z.string().min(1), to: z.string().min(1) });
export const RawGraph = z.looseObject({ nodes: z.array(RawNode), edges: z.array(RawEdge) });

export const RawQuestion = z.looseObject({
  scene_type: z.string().optional(),
  question: z.string(),
  reason: z.string().optional(),
  nodes_involved: z.looseObject({
    start: z.string(),
    start_detail: z.string().optional(),
    intermediate: z.array(z.string()).nullish(),
    end: z.string(),
    end_detail: z.string().optional(),
  }),
});
/** Both forms occur in the release: a bare array, or `{ "questions": [...] }`. */
export const RawQuestionFile = z.union([z.array(z.unknown()), z.looseObject({ questions: z.array(z.unknown()) })]);

export const RawLabel = z.looseObject({
  traversable: z.boolean(),
  note: z.string().nullish(),
  timestamp: z.string().optional(),
  question: z.string().optional(),
  annotator: z.string().optional(),
});
export const RawTraverseFile = z.record(z.string(), z.unknown());
export const RawHallucinated = z.array(z.string());
export const RawAgentTable = z.record(z.string(), z.unknown());

export const RawProfile = z.looseObject({
  agent_name: z.string().min(1),
  body_shape: z.enum(['cylinder', 'box']),
  body_height_m: z.number().positive(),
  body_width_m: z.number().positive(),
  body_depth_m: z.number().positive().nullable().optional(),
  max_vertical_cross_height_m: z.number().nonnegative(),
  can_go_up_or_down_stairs: z.boolean(),
  can_operate_elevator: z.boolean(),
  can_open_the_door: z.boolean(),
  description: z.string().optional(),
  turning_space_m: z.number().positive().nullable().optional(),
});
export const RawProfileFile = z.array(z.unknown());

export const KNOWN = {
  node: ['id', 'name', 'description', 'position', 'floor'],
  edge: ['id', 'from', 'to'],
  question: ['scene_type', 'question', 'reason', 'nodes_involved'],
  nodesInvolved: ['start', 'start_detail', 'intermediate', 'end', 'end_detail'],
  label: ['traversable', 'note', 'timestamp', 'question', 'annotator'],
  profile: [
    'agent_name',
    'body_shape',
    'body_height_m',
    'body_width_m',
    'body_depth_m',
    'max_vertical_cross_height_m',
    'can_go_up_or_down_stairs',
    'can_operate_elevator',
    'can_open_the_door',
    'description',
    'turning_space_m',
  ],
} as const;
