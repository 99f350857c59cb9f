import { Vector3 } from 'three';
import type { AgentProfile } from '../../core/agents.ts';
import { edgePairs, type NavGraph, type Vec3 } from '../../core/graph.ts';
import type { SceneGeometry } from '../suggest/geometry.ts';
import type { Way } from '../suggest/measureEdge.ts';
import { edgeWay, measureContext, type MeasureContext } from '../suggest/measureEdge.ts';
import { buildReferenceNavMesh } from '../suggest/navmesh.ts';
import { SegmentPlanner, type DriveDecision, type EdgeWay } from './decide.ts';
import { plannerWorld } from './world.ts';

/**
 * Every agent driven over every edge of a scene (the batch the command line's `drive` prints and
 * the tests check): one reference navmesh for the edges' routes, one terrain per edge shared by the
 * agents, one decision per agent and edge (`a|b` with a < b, driven from a to b).
 */
export interface SceneDrives {
  agents: Record<string, Record<string, DriveDecision>>;
  /** With `bothWays`: each agent driven from b to a as well, under the same `a|b` key. */
  reverse?: Record<string, Record<string, DriveDecision>>;
  timings: { navmeshMs: number; totalMs: number };
}

export interface DriveSceneOptions {
  onProgress?: (fraction: number, message: string) => void;
  signal?: AbortSignal;
  /** Drive every edge both ways: a label holds for an edge, so its two directions must agree. */
  bothWays?: boolean;
}

/** What the planner needs of an edge's way (world coordinates, plain points). */
export function plannerWay(way: Way): EdgeWay {
  if (way.kind === 'route') return { kind: 'route', points: way.points.map((p) => ({ x: p.x, y: p.y, z: p.z })) };
  if (way.kind === 'lift') return { kind: 'lift', box: way.box };
  return { kind: 'none', why: way.why };
}

/** A node's position (mesh frame, as graph files keep it) in the world. */
export function toWorld(geom: SceneGeometry, p: Vec3): Vec3 {
  const v = new Vector3(p.x, p.y, p.z).applyMatrix4(geom.frame);
  return { x: v.x, y: v.y, z: v.z };
}

/** A planner over a scan, with its reference routes: what the scene worker keeps per scan. */
export class ScenePlanner {
  readonly planner: SegmentPlanner;
  private constructor(
    readonly geom: SceneGeometry,
    readonly ctx: MeasureContext,
    private readonly dispose_: () => void,
  ) {
    this.planner = new SegmentPlanner(plannerWorld(geom));
  }

  static async create(geom: SceneGeometry): Promise<ScenePlanner> {
    const ref = await buildReferenceNavMesh(geom);
    return new ScenePlanner(geom, measureContext(geom, ref), () => ref.dispose());
  }

  /** Decide one agent from node position `a` to node position `b` (mesh frame). */
  decide(profile: AgentProfile, a: Vec3, b: Vec3): DriveDecision {
    // The way is found in one order whichever way the agent goes, so both directions share a terrain.
    const [p, q] = a.x < b.x || (a.x === b.x && a.z <= b.z) ? [a, b] : [b, a];
    return this.planner.decide(profile, toWorld(this.geom, a), toWorld(this.geom, b), plannerWay(edgeWay(this.ctx, p, q)));
  }

  dispose(): void {
    this.dispose_();
  }
}

export async function driveScene(
  geom: SceneGeometry,
  graph: Pick<NavGraph, 'nodes' | 'edges'>,
  profiles: readonly AgentProfile[],
  { onProgress, signal, bothWays = false }: DriveSceneOptions = {},
): Promise<SceneDrives> {
  const t0 = performance.now();
  const scene = await ScenePlanner.create(geom);
  try {
    const navmeshMs = performance.now() - t0;
    const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
    const pairs = edgePairs(graph);
    const perAgent = (): SceneDrives['agents'] => Object.fromEntries(profiles.map((p) => [p.name, {}]));
    const agents = perAgent();
    const reverse = bothWays ? perAgent() : undefined;
    const total = pairs.length * profiles.length * (reverse ? 2 : 1);
    let done = 0;
    for (const [a, b] of pairs) {
      const key = `${a}|${b}`;
      const ways: [SceneDrives['agents'], string, string][] = [[agents, a, b]];
      if (reverse) ways.push([reverse, b, a]);
      for (const p of profiles) {
        for (const [into, from, to] of ways) {
          if (signal?.aborted) throw signal.reason ?? new DOMException('The drive was aborted', 'AbortError');
          onProgress?.(done / total, `Driving ${p.name} over ${from}→${to}`);
          into[p.name]![key] = scene.decide(p, nodes.get(from)!.position, nodes.get(to)!.position);
          done++;
          await new Promise<void>((resolve) => setTimeout(resolve, 0));
        }
      }
    }
    onProgress?.(1, `Drove ${profiles.length} agents over ${pairs.length} edges${reverse ? ', both ways' : ''}`);
    return { agents, ...(reverse ? { reverse } : {}), timings: { navmeshMs, totalMs: performance.now() - t0 } };
  } finally {
    scene.dispose();
  }
}
