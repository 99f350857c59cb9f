import type { AgentName } from '../../core/agents.ts';
import type { Vec3 } from '../../core/graph.ts';
import type { PassageFeature, ReasonCategory, RuleCheck } from '../../core/rules.ts';
import type { StairsEvidence, StepEvidence } from '../terrain/steps.ts';

/**
 * Results of the suggestion engine. Plain, JSON-serialisable data: the browser shows them, the CLI
 * prints them, tests compare them. Every position here is in WORLD coordinates (Y up, metres, the
 * scan's `frame` applied) — including `feature.at`, which core/rules.ts documents as mesh frame
 * for the sample's features.json (the two coincide for Y-up scans at unit scale, like the sample).
 */

/** Heights above the local floor at which clear widths are measured (metres). */
export const WIDTH_HEIGHTS_M = [0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 1.0, 1.15, 1.3, 1.45, 1.6, 1.8] as const;

/** A change of floor height along the route, and a flight of them (terrain/steps.ts). */
export type { StairsEvidence, StepEvidence } from '../terrain/steps.ts';

/** The narrowest clear width through the route at one height above the local floor. */
export interface WidthAtHeight {
  heightM: number;
  /** Null when every horizontal line through the route at this height is open for 3 m. */
  widthM: number | null;
  at: Vec3 | null;
}

export interface CornerEvidence {
  at: Vec3;
  /** How far the route turns there, degrees. */
  turnDeg: number;
  /** Narrowest width of each leg per height (aligned with WIDTH_HEIGHTS_M), leg on `a`'s side first. */
  legWidthsByHeight: [(number | null)[], (number | null)[]];
}

export interface LiftEvidence {
  /** World-space bounds of the lift part, when the scan names one. */
  box: { min: Vec3; max: Vec3 } | null;
  /** Reference routes from each node to the lift door (world), where found. */
  approaches: Vec3[][];
}

export interface EdgeEvidence {
  /** Corners of the reference route from `a` to `b` (world), or null when there is none. */
  route: Vec3[] | null;
  routeLengthM: number | null;
  straightLengthM: number;
  /** The route resampled every ~5 cm, each point on the floor under it. */
  samples: Vec3[];
  /** Narrowest width through each sample over all heights (null: open). */
  sampleWidthM: (number | null)[];
  steps: StepEvidence[];
  stairs: StairsEvidence | null;
  /** Per height (aligned with WIDTH_HEIGHTS_M): the narrowest width through the route. */
  widthsByHeight: WidthAtHeight[];
  corner: CornerEvidence | null;
  /** Where the route passes through a closed door. */
  door: { at: Vec3 } | null;
  lift: LiftEvidence | null;
  /** The lowest free height over the route (floor to the first surface above), when under 1.8 m: a low opening. */
  clearHeight: { heightM: number; at: Vec3 } | null;
}

/** One edge measured in the scan: the same for every agent. */
export interface MeasuredEdge {
  a: string;
  b: string;
  /** The obstacle as the rules read it; null when the scan has no walkable route between the nodes. */
  feature: PassageFeature | null;
  /** Why there is no feature, in words. */
  noRoute: string | null;
  evidence: EdgeEvidence;
  /** The scan's surface noise along the route (0 for a generated house): how near a limit a measurement settles nothing. */
  noiseM: number;
  measureMs: number;
}

export interface SuggestionMeasures {
  clearWidthM?: number;
  stepHeightM?: number;
  risers?: number;
  riserM?: number;
  cornerWidthsM?: [number, number];
  /** Longest footprint that turns the corner (box agents). */
  turnLengthM?: number;
  /** Free height of a low opening on the way (rules.ts 4b). */
  clearHeightM?: number;
}

/** The suggested label of one edge for one agent. */
export interface Suggestion {
  traversable: boolean;
  reason: ReasonCategory | null;
  note: string;
  measured: SuggestionMeasures;
  checks: RuleCheck[];
  /** Whether the agent's own navmesh has a direct route A→B; null where a navmesh cannot tell (lifts). */
  navmeshRoute: boolean | null;
  navmeshDisagrees: boolean;
  /** When a check rests on a measurement within the scan's noise of the agent's limit: why the scan cannot tell (core/doubt.ts). */
  doubt: string | null;
}

export interface NavMeshInfo {
  agent: AgentName;
  buildMs: number;
  /** The agent as the navmesh sees it, after rounding to voxels. */
  radiusM: number;
  heightM: number;
  climbM: number;
  cellSizeM: number;
  cellHeightM: number;
  polygons: number;
}

export interface SceneSuggestions {
  /** Keyed `a|b` with a < b. */
  edges: Record<string, MeasuredEdge>;
  /** Per agent, per edge key. */
  agents: Record<AgentName, Record<string, Suggestion>>;
  /** The reference navmesh first, then one per agent. */
  navmeshes: NavMeshInfo[];
  timings: { navmeshMs: number; measureMs: number; totalMs: number };
}

export interface SuggestProgress {
  stage: 'navmesh' | 'edges' | 'done';
  /** 0..1 over the whole run. */
  fraction: number;
  message: string;
}
