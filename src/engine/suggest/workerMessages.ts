import type { AgentProfile } from '../../core/agents.ts';
import type { NavGraph, Vec3 } from '../../core/graph.ts';
import type { DriveDecision } from '../planner/decide.ts';
import type { PackedGeometry } from './transfer.ts';
import type { SceneSuggestions } from './types.ts';

/**
 * Messages between the page and the scene worker (workers/suggest.worker.ts). The worker keeps the
 * last scan it was sent (by `key`) with its motion planner, so a request about the same scan
 * carries no geometry; a request whose key the worker does not hold must carry it.
 */
export type SuggestRequest =
  | { type: 'run'; id: number; key: number; geometry?: PackedGeometry; graph: Pick<NavGraph, 'nodes' | 'edges'>; profiles: AgentProfile[] }
  /** Drive an agent from node position a to b (mesh frame) with the motion planner (engine/planner). */
  | { type: 'drive'; id: number; key: number; geometry?: PackedGeometry; profile: AgentProfile; a: Vec3; b: Vec3 }
  | { type: 'abort'; id: number };

export type SuggestReply =
  | { type: 'ready' }
  | { type: 'progress'; id: number; fraction: number; message: string }
  | { type: 'done'; id: number; result: SceneSuggestions }
  | { type: 'drive'; id: number; decision: DriveDecision }
  /** The request named a scan the worker no longer holds and carried none: send it again with the geometry. */
  | { type: 'missing'; id: number }
  | { type: 'failed'; id: number; message: string; aborted: boolean };
