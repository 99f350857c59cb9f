import { Vector3 } from 'three';
import type { AgentProfile } from '../../core/agents.ts';
import { edgePairs, type NavGraph } from '../../core/graph.ts';
import { doubtOfMeasure, turningDoubt, type DoubtMeasure } from '../../core/doubt.ts';
import { judgeEdge, maxTurningLengthM, REASON_OF_RULE, type PassageFeature, type RuleCheck } from '../../core/rules.ts';
import type { SceneGeometry } from './geometry.ts';
import { measureContext, measureEdge } from './measureEdge.ts';
import { buildAgentNavMesh, buildReferenceNavMesh, type AgentNavMesh } from './navmesh.ts';
import { findRoute, floorUnderNode, isDetour } from './route.ts';
import type { MeasuredEdge, SceneSuggestions, Suggestion, SuggestionMeasures, SuggestProgress } from './types.ts';

/**
 * Suggested traversability labels for every edge of a scene and every agent. Each edge is measured
 * once (measureEdge.ts); each agent's label is then `judgeEdge` (core/rules.ts) applied to that
 * measurement, with the widths the agent's height runs into: a sweeper passes under a table that
 * narrows the corridor for everyone taller. Each agent's own navmesh is asked too, as corroboration:
 * its answer is reported, and where it differs from the rules that is flagged, never applied.
 */

export interface SuggestOptions {
  onProgress?: (p: SuggestProgress) => void;
  signal?: AbortSignal;
  /** Build each agent's own navmesh to corroborate the rules (default true; the labels never depend on it). */
  corroborate?: boolean;
}

/** Indices of the measured heights below the agent's height (at least the lowest). */
function heightsFor(profile: AgentProfile, heights: readonly number[]): number[] {
  const ks = heights.flatMap((h, k) => (h < profile.heightM ? [k] : []));
  return ks.length ? ks : [0];
}

function minAt(values: readonly (number | null)[], ks: readonly number[]): number | undefined {
  const m = Math.min(...ks.map((k) => values[k] ?? Infinity));
  return Number.isFinite(m) ? m : undefined;
}

/** The edge's feature as this agent meets it: widths only from heights the agent reaches. */
export function featureForAgent(edge: MeasuredEdge, profile: AgentProfile): PassageFeature | null {
  if (!edge.feature) return null;
  const { clearWidthM: _w, cornerWidthsM: _c, ...rest } = edge.feature;
  const ev = edge.evidence;
  const ks = heightsFor(
    profile,
    ev.widthsByHeight.map((w) => w.heightM),
  );
  const clearWidthM = minAt(
    ev.widthsByHeight.map((w) => w.widthM),
    ks,
  );
  const legA = ev.corner ? minAt(ev.corner.legWidthsByHeight[0], ks) : undefined;
  const legB = ev.corner ? minAt(ev.corner.legWidthsByHeight[1], ks) : undefined;
  return {
    ...rest,
    ...(clearWidthM !== undefined ? { clearWidthM } : {}),
    ...(legA !== undefined && legB !== undefined ? { cornerWidthsM: [legA, legB] as [number, number] } : {}),
  };
}

/** One agent's suggested label for one measured edge. */
export function suggestForAgent(edge: MeasuredEdge, profile: AgentProfile, navmeshRoute: boolean | null): Suggestion {
  const feature = featureForAgent(edge, profile);
  if (!feature) {
    return {
      traversable: false,
      reason: 'other',
      note: edge.noRoute ?? 'No walkable route between the nodes in the scan',
      measured: {},
      checks: [],
      navmeshRoute,
      navmeshDisagrees: navmeshRoute === true,
      doubt: null,
    };
  }
  const j = judgeEdge(profile, feature);
  const measured: SuggestionMeasures = {};
  if (feature.clearWidthM !== undefined) measured.clearWidthM = feature.clearWidthM;
  if (feature.sillHeightM !== undefined) measured.stepHeightM = feature.sillHeightM;
  if (feature.risers !== undefined) measured.risers = feature.risers;
  if (feature.riserM !== undefined) measured.riserM = feature.riserM;
  if (feature.clearHeightM !== undefined) measured.clearHeightM = feature.clearHeightM;
  if (feature.cornerWidthsM) {
    measured.cornerWidthsM = feature.cornerWidthsM;
    if (profile.shape === 'box' && profile.depthM !== null) {
      const turn = maxTurningLengthM(feature.cornerWidthsM[0], feature.cornerWidthsM[1], Math.min(profile.widthM, profile.depthM));
      measured.turnLengthM = Math.round(turn * 1e4) / 1e4;
    }
  }
  return {
    traversable: j.traversable,
    reason: j.failedRule ? REASON_OF_RULE[j.failedRule] : null,
    note: j.note,
    measured,
    checks: j.checks,
    navmeshRoute,
    navmeshDisagrees: navmeshRoute !== null && navmeshRoute !== j.traversable,
    doubt: doubtOfChecks(j.checks, edge.noiseM, feature.cornerWidthsM, profile),
  };
}

/** The measure each rule's check reads, for doubt (core/doubt.ts); rules of yes/no facts have none. */
const MEASURE_OF_RULE: Partial<Record<RuleCheck['rule'], Exclude<DoubtMeasure, 'turning'>>> = {
  sill: 'sill',
  headroom: 'headroom',
  width: 'width',
  // A disc turns a corner as wide as it is: its turning check reads a width. A box's reads the corner's legs (turningDoubt).
  turning: 'width',
};

/** The doubt over the check that decides: the failed one, or for a label that passes, any within noise of its limit. */
function doubtOfChecks(checks: readonly RuleCheck[], noiseM: number, corner: readonly [number, number] | undefined, profile: AgentProfile): string | null {
  const failed = checks.find((c) => !c.passed);
  for (const c of failed ? [failed] : checks) {
    if (c.measuredM === undefined || c.limitM === undefined) continue;
    const kind = MEASURE_OF_RULE[c.rule];
    const box = corner && profile.shape === 'box' && profile.depthM !== null;
    const doubt =
      c.rule === 'turning' && box
        ? turningDoubt(corner[0], corner[1], Math.min(profile.widthM, profile.depthM!), c.limitM, noiseM)
        : kind
          ? doubtOfMeasure(kind, c.measuredM, c.limitM, noiseM)
          : null;
    if (doubt) return doubt;
  }
  return null;
}

/** Whether an agent's navmesh has a direct route between two nodes (mesh frame). */
function navmeshHasRoute(nav: AgentNavMesh, geom: SceneGeometry, a: Vector3, b: Vector3): boolean {
  const from = floorUnderNode(geom.solid, a.clone().applyMatrix4(geom.frame)),
    to = floorUnderNode(geom.solid, b.clone().applyMatrix4(geom.frame));
  const r = findRoute(nav, from, to);
  return r.ok && !isDetour(r.lengthM, from.distanceTo(to));
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('The suggestion run was aborted', 'AbortError');
}

/** Measure every edge once and suggest a label per agent; yields to the event loop between steps. */
export async function suggestScene(
  geom: SceneGeometry,
  graph: Pick<NavGraph, 'nodes' | 'edges'>,
  profiles: readonly AgentProfile[],
  { onProgress, signal, corroborate = true }: SuggestOptions = {},
): Promise<SceneSuggestions> {
  const started = performance.now();
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const edges = edgePairs(graph);
  const steps = (corroborate ? profiles.length : 0) + 1 + edges.length;
  let done = 0;
  const report = async (stage: SuggestProgress['stage'], message: string) => {
    onProgress?.({ stage, fraction: steps ? done / steps : 1, message });
    await yieldToEventLoop();
    throwIfAborted(signal);
  };

  const navs: AgentNavMesh[] = [];
  try {
    await report('navmesh', 'Building the reference navmesh');
    const ref = await buildReferenceNavMesh(geom);
    navs.push(ref);
    done++;
    const agentNavs = new Map<string, AgentNavMesh>();
    for (const p of corroborate ? profiles : []) {
      await report('navmesh', `Building the navmesh for ${p.name}`);
      const nav = await buildAgentNavMesh(geom, p);
      navs.push(nav);
      agentNavs.set(p.name, nav);
      done++;
    }
    const navmeshMs = performance.now() - started;

    const ctx = measureContext(geom, ref);
    const result: SceneSuggestions = {
      edges: {},
      agents: Object.fromEntries(profiles.map((p) => [p.name, {}])),
      navmeshes: navs.map((n) => n.info),
      timings: { navmeshMs, measureMs: 0, totalMs: 0 },
    };
    const measureStart = performance.now();
    for (const [a, b] of edges) {
      const key = `${a}|${b}`;
      await report('edges', `Measuring ${key}`);
      const pa = nodes.get(a)!.position,
        pb = nodes.get(b)!.position;
      const measured = measureEdge(geom, ref, pa, pb, { a, b }, ctx);
      result.edges[key] = measured;
      for (const p of profiles) {
        // A navmesh has no lifts: it cannot corroborate a lift ride either way.
        const nav = agentNavs.get(p.name);
        const route = measured.feature?.kind === 'lift' || !nav ? null : navmeshHasRoute(nav, geom, vec(pa), vec(pb));
        result.agents[p.name]![key] = suggestForAgent(measured, p, route);
      }
      done++;
    }
    result.timings.measureMs = performance.now() - measureStart;
    result.timings.totalMs = performance.now() - started;
    onProgress?.({ stage: 'done', fraction: 1, message: `Suggested ${edges.length} edges for ${profiles.length} agents` });
    return result;
  } finally {
    for (const n of navs) n.dispose();
  }
}

const vec = (p: { x: number; y: number; z: number }) => new Vector3(p.x, p.y, p.z);
