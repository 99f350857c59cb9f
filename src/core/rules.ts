import type { AgentProfile } from './agents.ts';

/**
 * Traversability of one graph edge for one agent, from the obstacle on the edge and the agent's
 * profile (src/core/agents.ts). The sample house's ground truth applies these rules to the
 * obstacles it was built with; the suggestions apply them to obstacles measured in a scan. The rules, checked in this order; the first that
 * fails is the label's note:
 *
 * 1. stairs on the edge ⇒ the agent can go up or down stairs;
 * 2. a lift on the edge ⇒ the agent can operate the lift;
 * 3. a closed door on the edge ⇒ the agent can open doors;
 * 4. a sill or step of height h ⇒ h ≤ max step + 1 mm (the measurement tolerance, so a 2 cm sill
 *    counts as crossable for an agent rated for 2 cm);
 * 4b. a low opening (a crawl space, a table, a lintel) of clear height c ⇒ the agent's height ≤ c;
 * 5. every clear width w on the edge (doorway, open passage, corridor, corner leg, stair, lift
 *    door) ⇒ agent width + 2 × 0.02 m ≤ w, the agent width being the diameter for cylinders;
 * 6. an L-shaped corner with leg widths a and b ⇒ the footprint can turn it: a box whose shorter
 *    side is W and longer side L turns when L + 0.02 m ≤ min over θ ∈ (0, π/2) of
 *    (a·sinθ + b·cosθ − W) / (sinθ·cosθ) — the longest W-wide rectangle that can be carried round
 *    the corner, found by dense sampling — and a cylinder turns when its diameter + 0.04 m ≤ min(a, b).
 *
 * Every edge has the same judgement in both directions (nothing here depends on the direction).
 *
 * Two kinds need no rule of their own:
 * - a ramp (a sloped walking surface joining two floor levels) has no sill, so only its clear width
 *   (rule 5) can stop an agent. CapNav's profiles carry no slope limit: ramps are taken to be no
 *   steeper than 1:12 (the accessible-ramp norm), which a manual wheelchair climbs; a steeper one
 *   would need a profile field first. A step beside a ramp is not an alternative the rules weigh:
 *   an edge has one obstacle, so a house that offers both gives them separate edges.
 * - a crawl space (a low opening under a cabinet or a stair) is judged by its clear height (rule
 *   4b) and its width (rule 5), like any opening.
 */

export type PassageKind = 'doorway' | 'corridor' | 'corner' | 'stairs' | 'lift' | 'open' | 'ramp' | 'crawl';

/** The obstacle on one edge, as features.json records it. */
export interface PassageFeature {
  kind: PassageKind;
  clearWidthM?: number;
  sillHeightM?: number;
  closedDoor?: boolean;
  cornerWidthsM?: [number, number];
  riserM?: number;
  risers?: number;
  /** A ramp's rise (end to end) and its length on the plan: what it climbs, for the record (no rule judges them). */
  riseM?: number;
  runM?: number;
  /** The free height of the lowest opening on the edge (floor to the underside of what is above). */
  clearHeightM?: number;
  /** The obstacle's centre, mesh frame. */
  at: { x: number; y: number; z: number };
  /** Passage axis on the plan, from the edge's `from` node towards its `to` node. */
  direction?: { x: number; z: number };
}

export type RuleId = 'stairs' | 'lift' | 'closed-door' | 'sill' | 'headroom' | 'width' | 'turning';

/** Reason categories of a not-traversable label (CapNav §4.4 obstacle types, plus doors, lifts and other). */
export const REASONS = ['stairs', 'step', 'narrow', 'turning', 'door', 'lift', 'other'] as const;
export type ReasonCategory = (typeof REASONS)[number];

export const REASON_OF_RULE: Record<RuleId, ReasonCategory> = {
  // A low opening is a passage too small for the body, as a narrow one is (CapNav's "tight clearances").
  stairs: 'stairs',
  lift: 'lift',
  'closed-door': 'door',
  sill: 'step',
  headroom: 'narrow',
  width: 'narrow',
  turning: 'turning',
};

export const REASON_LABEL: Record<ReasonCategory, string> = {
  stairs: 'Stairs',
  step: 'Step / sill',
  narrow: 'Narrow passage',
  turning: 'Turning space',
  door: 'Door it cannot open',
  lift: 'Lift it cannot use',
  other: 'Other',
};

/** One rule applied: what was measured against what the agent needs. */
export interface RuleCheck {
  rule: RuleId;
  passed: boolean;
  /** The obstacle's measure (sill height, clear width, longest footprint that turns). */
  measuredM?: number;
  /** The agent's limit (max step + tolerance, width + clearance, footprint length + margin). */
  limitM?: number;
}

export interface Judgement {
  traversable: boolean;
  note: string;
  /** The first rule that failed, or null. */
  failedRule: RuleId | null;
  checks: RuleCheck[];
}

/** Sills are measured to the millimetre; an agent rated for 2 cm crosses a 2 cm sill. */
export const STEP_TOLERANCE_M = 0.001;
/** Free space the agent needs on each side in a doorway or corridor. */
export const SIDE_CLEARANCE_M = 0.02;
/** How much longer than the footprint the longest turnable rectangle must be. */
export const TURN_MARGIN_M = 0.02;
const TURN_SAMPLES = 20_000;

/** Width an agent occupies side to side: the diameter of a cylinder, the width of a box. */
export const agentWidthM = (agent: AgentProfile): number => agent.widthM;

/**
 * Longest rectangle of width `w` that can be moved round a right-angled corner joining corridors
 * of widths `a` and `b` (the ladder-round-the-corner bound, with the rectangle's width). Infinity
 * when the corner is no constraint; 0 when the rectangle does not even fit a leg.
 */
export function maxTurningLengthM(a: number, b: number, w: number): number {
  if (w >= Math.min(a, b)) return 0;
  let best = Infinity;
  for (let i = 0; i < TURN_SAMPLES; i++) {
    const theta = ((i + 0.5) / TURN_SAMPLES) * (Math.PI / 2);
    const s = Math.sin(theta),
      c = Math.cos(theta);
    best = Math.min(best, (a * s + b * c - w) / (s * c));
  }
  return best;
}

/** Whether the agent's footprint can turn an L-shaped corner of leg widths a and b (rule 6). */
export function turnsCorner(agent: AgentProfile, a: number, b: number): RuleCheck {
  if (agent.shape === 'cylinder' || agent.depthM === null) {
    return {
      rule: 'turning',
      passed: agent.widthM + 2 * SIDE_CLEARANCE_M <= Math.min(a, b),
      measuredM: Math.min(a, b),
      limitM: agent.widthM + 2 * SIDE_CLEARANCE_M,
    };
  }
  const short = Math.min(agent.widthM, agent.depthM),
    long = Math.max(agent.widthM, agent.depthM);
  const max = maxTurningLengthM(a, b, short);
  return { rule: 'turning', passed: long + TURN_MARGIN_M <= max, measuredM: max, limitM: long + TURN_MARGIN_M };
}

/** 0.013 → "0.013", 0.02 → "0.02": millimetres when they matter, at least centimetres. */
function metres(v: number): string {
  const s = v.toFixed(3);
  return s.endsWith('0') ? v.toFixed(2) : s;
}

/**
 * The wording of each failed rule. Every place that explains a not-traversable label — the ground
 * truth, the suggestions, the drive — words it through these, so "step too high" reads the same
 * wherever it is shown.
 */
export const NOTES = {
  stairs: (): string => 'Stairs: cannot go up or down stairs',
  lift: (): string => 'Lift: cannot operate the lift',
  door: (): string => 'Closed door: cannot open doors',
  step: (heightM: number, maxStepM: number): string => `Sill ${metres(heightM)} m higher than the ${metres(maxStepM)} m the agent can cross`,
  headroom: (clearHeightM: number, agentHeightM: number): string =>
    `Low opening: clear height ${clearHeightM.toFixed(2)} m < ${agentHeightM.toFixed(2)} m agent height`,
  narrow: (clearWidthM: number, neededM: number): string => `Narrow passage: clear width ${clearWidthM.toFixed(2)} m < ${neededM.toFixed(2)} m needed`,
  /** Leg widths `a` and `b` of the corner, when measured. */
  turning: (agent: Pick<AgentProfile, 'widthM' | 'depthM'>, a?: number, b = a): string => {
    const corner = a === undefined || b === undefined ? '' : a === b ? `${a.toFixed(2)} m ` : `${a.toFixed(2)} × ${b.toFixed(2)} m `;
    const footprint = agent.depthM === null ? `${agent.widthM.toFixed(2)} m round` : `${agent.widthM.toFixed(2)} × ${agent.depthM.toFixed(2)} m`;
    return `Turning space: a ${footprint} footprint cannot turn the ${corner}corner`;
  },
};

/** The width a passage must have for the agent: its width plus the side clearance each side. */
export const neededWidthM = (agent: AgentProfile): number => agentWidthM(agent) + 2 * SIDE_CLEARANCE_M;

/** Judge one edge for one agent by rules 1–6 (see above). */
export function judgeEdge(agent: AgentProfile, feature: PassageFeature): Judgement {
  const checks: RuleCheck[] = [];
  const fail = (check: RuleCheck, note: string): Judgement => ({ traversable: false, note, failedRule: check.rule, checks: [...checks, check] });

  if (feature.kind === 'stairs') {
    const check: RuleCheck = { rule: 'stairs', passed: agent.canUseStairs };
    if (!check.passed) return fail(check, NOTES.stairs());
    checks.push(check);
  }
  if (feature.kind === 'lift') {
    const check: RuleCheck = { rule: 'lift', passed: agent.canUseElevator };
    if (!check.passed) return fail(check, NOTES.lift());
    checks.push(check);
  }
  if (feature.closedDoor) {
    const check: RuleCheck = { rule: 'closed-door', passed: agent.canOpenDoors };
    if (!check.passed) return fail(check, NOTES.door());
    checks.push(check);
  }
  if (feature.sillHeightM !== undefined) {
    const check: RuleCheck = {
      rule: 'sill',
      passed: feature.sillHeightM <= agent.maxStepM + STEP_TOLERANCE_M,
      measuredM: feature.sillHeightM,
      limitM: agent.maxStepM + STEP_TOLERANCE_M,
    };
    if (!check.passed) return fail(check, NOTES.step(feature.sillHeightM, agent.maxStepM));
    checks.push(check);
  }
  if (feature.clearHeightM !== undefined) {
    const check: RuleCheck = { rule: 'headroom', passed: agent.heightM <= feature.clearHeightM, measuredM: feature.clearHeightM, limitM: agent.heightM };
    if (!check.passed) return fail(check, NOTES.headroom(feature.clearHeightM, agent.heightM));
    checks.push(check);
  }
  const widths = [feature.clearWidthM, ...(feature.cornerWidthsM ?? [])].filter((w): w is number => w !== undefined);
  if (widths.length > 0) {
    const needed = neededWidthM(agent);
    const narrowest = Math.min(...widths);
    const check: RuleCheck = { rule: 'width', passed: needed <= narrowest, measuredM: narrowest, limitM: needed };
    if (!check.passed) return fail(check, NOTES.narrow(narrowest, needed));
    checks.push(check);
  }
  if (feature.kind === 'corner' && feature.cornerWidthsM) {
    const [a, b] = feature.cornerWidthsM;
    const check = turnsCorner(agent, a, b);
    if (!check.passed) return fail(check, NOTES.turning(agent, a, b));
    checks.push(check);
  }
  return { traversable: true, note: `Clear: ${clearPhrase(feature)}`, failedRule: null, checks };
}

function clearPhrase(f: PassageFeature): string {
  switch (f.kind) {
    case 'doorway':
      return f.closedDoor ? 'closed door, the agent opens it' : f.sillHeightM !== undefined ? 'doorway with a sill the agent crosses' : 'doorway';
    case 'open':
      return 'open passage';
    case 'corridor':
      return 'narrow corridor';
    case 'corner':
      return 'L-shaped corner, the footprint turns';
    case 'stairs':
      return 'stairs';
    case 'lift':
      return 'lift';
    case 'ramp':
      return 'ramp';
    case 'crawl':
      return 'low opening the agent fits under';
  }
}
