import { z } from 'zod';

const Vec3 = z.object({ x: z.number(), y: z.number(), z: z.number() });

/** A saved camera view of the scene an item is about (world frame), with a small picture of it. */
export const ViewpointSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  camera: z.object({ mode: z.enum(['orbit', 'top', 'first']), position: Vec3, target: Vec3, fov: z.number().optional(), zoom: z.number().optional() }),
  /**
   * A JPEG data URL, ~160 px wide; absent when the view was not rendered (e.g. imported). Only an
   * inline image is accepted: a link would make the studio fetch whatever an imported file names.
   */
  /** The 3D view's size when it was saved (CSS pixels): a top-down view's zoom is relative to it. Absent on views saved before. */
  size: z.object({ width: z.number().positive().max(16384), height: z.number().positive().max(16384) }).optional(),
  /** The slice the view showed (world heights): everything above `height` hidden, and below `below` when set. Absent: unsliced. */
  slice: z.object({ height: z.number(), below: z.number().nullable() }).optional(),
  thumbnail: z
    .string()
    .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/, 'a thumbnail must be an inline PNG, JPEG or WebP image (data:image/…;base64,…), not a link')
    .optional(),
});
export type Viewpoint = z.infer<typeof ViewpointSchema>;

/** A numbered 3D mark drawn on the scene, Set-of-Mark style (scan frame). */
export const MarkSchema = z.object({ id: z.string().min(1), number: z.number().int().positive(), position: Vec3, label: z.string().default('') });
export type Mark = z.infer<typeof MarkSchema>;

/** What a step or an item points at in the scene. */
export const LinksSchema = z.object({
  viewpoints: z.array(z.string()).default([]),
  nodes: z.array(z.string()).default([]),
  edges: z.array(z.string()).default([]),
  marks: z.array(z.string()).default([]),
});
export type Links = z.infer<typeof LinksSchema>;

export const STEP_KINDS = ['perception', 'spatial', 'physical', 'safety', 'conclusion'] as const;

/** One step of a reasoning trail; `origin` says whether a person wrote or changed it. */
export const TrailStepSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  text: z.string(),
  kind: z.enum(STEP_KINDS),
  links: LinksSchema,
  origin: z.enum(['generated', 'written', 'edited']),
});
export type TrailStep = z.infer<typeof TrailStepSchema>;

export const REJECT_REASONS = ['hallucinated', 'wrong-answer', 'ambiguous', 'trivial', 'not-in-taxonomy', 'implausible'] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** One reviewer's decision on an item. */
export const ReviewSchema = z.object({
  reviewer: z.string(),
  verdict: z.enum(['accept', 'edit-accept', 'reject']),
  reason: z.enum(REJECT_REASONS).optional(),
  comment: z.string().default(''),
  /** Time the reviewer spent on the item, milliseconds. */
  timeMs: z.number().nonnegative(),
  at: z.string(),
});
export type Review = z.infer<typeof ReviewSchema>;

/** An adjudicator's final decision on an item whose reviews disagreed. */
export const AdjudicationSchema = z.object({
  adjudicator: z.string(),
  decision: z.enum(['accept', 'reject']),
  reason: z.enum(REJECT_REASONS).optional(),
  comment: z.string().default(''),
  at: z.string(),
});
export type Adjudication = z.infer<typeof AdjudicationSchema>;

export const ANSWER_KINDS = ['mcq', 'yesno', 'numeric', 'freetext'] as const;

/** The answer, by kind of question. */
export const AnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('mcq'), options: z.array(z.object({ key: z.string().min(1), text: z.string() })), correct: z.string() }),
  z.object({ kind: z.literal('yesno'), correct: z.boolean() }),
  z.object({ kind: z.literal('numeric'), value: z.number(), unit: z.string(), tolerance: z.number().nonnegative().default(0.1) }),
  z.object({ kind: z.literal('freetext'), reference: z.string() }),
]);
export type Answer = z.infer<typeof AnswerSchema>;

const CategorySchema = z.object({ capability: z.string(), subcategory: z.string().optional(), taskType: z.string().optional() });
const AnchorsSchema = z.object({
  viewpoints: z.array(ViewpointSchema).default([]),
  marks: z.array(MarkSchema).default([]),
  nodes: z.array(z.string()).default([]),
  edges: z.array(z.string()).default([]),
  agent: z.string().optional(),
});
const MeasurementSchema = z.object({ kind: z.enum(['distance', 'height', 'horizontal', 'width']), value: z.number(), points: z.array(Vec3) });

/** Where an item is in review (a draft is not yet offered to reviewers). */
export const ItemStatusSchema = z.enum(['draft', 'pending', 'accepted', 'rejected', 'adjudicate']);

/** What reviewers judge of an item: everything but its bookkeeping (id, status, reviews, provenance). */
export const ReviewedContentSchema = z.object({
  question: z.string(),
  answer: AnswerSchema,
  /** Capability id, subcategory id, optional task type: the category is required before acceptance. */
  category: CategorySchema,
  /** In a review round's record, viewpoints without their thumbnails (the pose is what was seen; the picture is only a preview). */
  anchors: AnchorsSchema,
  /** The measurement a numeric answer was filled from, kept as evidence. */
  measurement: MeasurementSchema.optional(),
  trail: z.array(TrailStepSchema),
});
export type ReviewedContent = z.infer<typeof ReviewedContentSchema>;

/**
 * A round of review an edit ended: the content the reviewers saw, their verdicts and any
 * adjudication, and the status they gave it. Kept as history; no longer in force.
 */
export const ReviewRoundSchema = z.object({
  status: ItemStatusSchema.exclude(['draft']),
  content: ReviewedContentSchema,
  reviews: z.array(ReviewSchema).default([]),
  adjudication: AdjudicationSchema.optional(),
});
export type ReviewRound = z.infer<typeof ReviewRoundSchema>;

/** Where an imported item came from: the file and the import (all files picked together share `at`). */
export const ImportedFromSchema = z.object({ file: z.string(), at: z.string() });

/**
 * How a generated item was made, when the studio made it (task generation): the model, the
 * prompt's version, the frames it was shown (budget and their video times), the endpoint's host
 * (never a key, a path or a query) and when. Kept with the item and exported with it.
 */
export const ProvenanceSchema = z.object({
  model: z.string(),
  promptVersion: z.string(),
  endpoint: z.string(),
  frames: z.object({ budget: z.string(), times: z.array(z.number()) }),
  generatedAt: z.string(),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

/**
 * A question-answer item anchored in a scene: written by an annotator or generated by a model
 * and reviewed. `generated` keeps the generator's version (question, answer, trail) so a reviewer
 * sees what changed.
 */
export const QaItemSchema = z.object({
  id: z.string().min(1),
  sceneId: z.string().min(1),
  // What reviewers judge, in the same order as before it had a schema of its own (stored and exported key order).
  ...ReviewedContentSchema.shape,
  source: z.enum(['written', 'generated', 'capnav']),
  /**
   * The scene question the item stands for (its index in the scene's question list): CapNav
   * questions imported as items, and navigation tasks generated here (core/taskgen).
   */
  capnavQuestion: z.number().int().nonnegative().optional(),
  /** What the generator wrote, before anyone changed it. */
  generated: ReviewedContentSchema.pick({ question: true, answer: true, trail: true }).extend({ generator: z.string().optional() }).optional(),
  provenance: ProvenanceSchema.optional(),
  status: ItemStatusSchema,
  /** Independent reviews required before the item is decided (overlap). */
  requiredReviews: z.number().int().min(1).max(5).default(1),
  reviews: z.array(ReviewSchema).default([]),
  /** The decision of an adjudicator on reviews that disagreed; it decides the item over the reviews. */
  adjudication: AdjudicationSchema.optional(),
  /** Earlier rounds of review, oldest first, each ended by an edit of what the reviewers saw (the last is what the panel diffs against). */
  reviewHistory: z.array(ReviewRoundSchema).optional(),
  /** The import the item came in (absent for items written here and for items imported before this was recorded). */
  importedFrom: ImportedFromSchema.optional(),
  createdAt: z.string(),
  author: z.string().default(''),
});
export type QaItem = z.infer<typeof QaItemSchema>;
