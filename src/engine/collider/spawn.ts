import type { AgentProfile } from '../../core/agents.ts';
import type { Vec3 } from '../../core/graph.ts';
import { place, type AgentBody } from './body.ts';
import type { ColliderWorld } from './world.ts';

export interface SpawnOptions {
  /** How far ahead the way must be clear (capped by the distance to the end). */
  reachM?: number;
  /** Probe step along a heading. */
  stepM?: number;
  /** Headings tried, this far apart, either side of the end's bearing. */
  turnDeg?: number;
}

export interface Spawned {
  body: AgentBody;
  /** Degrees between the heading taken and the bearing of the end (signed, left positive). */
  turnedDeg: number;
  /** How far the agent can go straight ahead on that heading, up to the reach asked. */
  clearM: number;
  /** Whether the bearing of the end itself was clear. */
  facingEnd: boolean;
}

/**
 * Set an agent down at a segment's start facing a way it can go: the bearing of the end when the
 * body can go straight that way for `reachM` (or all the way), else the heading nearest to it that
 * can (headings every `turnDeg`, nearest first, left before right), else the one that gets
 * farthest. An agent set facing the end through a wall would meet it on its first key press.
 */
export function spawnFacing(world: ColliderWorld, profile: AgentProfile, at: Vec3, end: Vec3, opts: SpawnOptions = {}): Spawned {
  const { reachM = 1, stepM = 0.05, turnDeg = 10 } = opts;
  const bearing = Math.atan2(end.x - at.x, end.z - at.z);
  const want = Math.min(reachM, Math.hypot(end.x - at.x, end.z - at.z));
  let best: { yaw: number; clear: number; k: number } | null = null;
  for (let n = 0; n <= 180 / turnDeg; n++) {
    for (const k of n === 0 ? [0] : n === 180 / turnDeg ? [n] : [n, -n]) {
      const yaw = bearing + (k * turnDeg * Math.PI) / 180;
      const clear = clearAhead(world, profile, at, yaw, want, stepM);
      if (!best || clear > best.clear + 1e-9) best = { yaw, clear, k };
      if (clear >= want - 1e-9) return spawned(world, profile, at, best, turnDeg);
    }
  }
  return spawned(world, profile, at, best!, turnDeg);
}

function spawned(world: ColliderWorld, profile: AgentProfile, at: Vec3, b: { yaw: number; clear: number; k: number }, turnDeg: number): Spawned {
  return { body: place(world, profile, at, b.yaw), turnedDeg: b.k * turnDeg, clearM: b.clear, facingEnd: b.k === 0 };
}

/** How far a body set down at `at` facing `yaw` moves straight ahead, in `stepM` steps, before something stops it (at most `want`). */
function clearAhead(world: ColliderWorld, profile: AgentProfile, at: Vec3, yaw: number, want: number, stepM: number): number {
  const body = place(world, profile, at, yaw);
  if (body.contact) return 0;
  let gone = 0;
  while (gone < want - 1e-9) {
    const d = Math.min(stepM, want - gone);
    if (!body.step({ forward: d, turn: 0 }).moved) break;
    gone += d;
  }
  return gone;
}
