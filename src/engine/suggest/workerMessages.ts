import type { AgentProfile } from '../../core/agents.ts';
import type { NavGraph } from '../../core/graph.ts';
import type { PackedGeometry } from './transfer.ts';
import type { SceneSuggestions } from './types.ts';

/** Messages between the page and the suggestion worker (workers/suggest.worker.ts). */
export type SuggestRequest =
  | { type: 'run'; id: number; geometry: PackedGeometry; graph: Pick<NavGraph, 'nodes' | 'edges'>; profiles: AgentProfile[] }
  | { type: 'abort'; id: number };

export type SuggestReply =
  | { type: 'ready' }
  | { type: 'progress'; id: number; fraction: number; message: string }
  | { type: 'done'; id: number; result: SceneSuggestions }
  | { type: 'failed'; id: number; message: string; aborted: boolean };
