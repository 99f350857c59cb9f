import type { LoadProgress, LoadStage } from './types.ts';

const ORDER: LoadStage[] = ['read', 'parse', 'textures', 'bvh', 'done'];

/**
 * Forwards progress while holding its promise: stages only move forward and fractions never go
 * back within a stage, whatever order the loaders' own callbacks arrive in.
 */
export class ProgressReporter {
  private stage = -1;
  private fraction = 0;

  constructor(private listener?: (p: LoadProgress) => void) {}

  emit(stage: LoadStage, fraction: number, message: string): void {
    const at = ORDER.indexOf(stage);
    if (at < this.stage) return;
    const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
    if (at === this.stage && f < this.fraction) return;
    this.stage = at;
    this.fraction = f;
    this.listener?.({ stage, fraction: f, message });
  }
}
