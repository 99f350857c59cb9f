import type { Prediction } from '../../core/scoring/paper/types.ts';
import type { Problem } from '../../core/problems.ts';

export interface PredictionRead {
  predictions: Prediction[];
  problems: Problem[];
}

/** Where a file sits: `<model_setting>/<SCENE>/<name>` under the results root (CapNav runner layout). */
export function placeOf(path: string): { model?: string; scene?: string; stem: string } {
  const segs = path.split('/');
  const name = segs[segs.length - 1]!;
  const stem = name.replace(/\.[^.]+$/, '');
  const out: { model?: string; scene?: string; stem: string } = { stem };
  if (segs.length >= 2) out.scene = segs[segs.length - 2]!;
  if (segs.length >= 3) out.model = segs[segs.length - 3]!;
  return out;
}

/**
 * `HM3D00025_q01_HUMANOID` (the runner's prompt-file name): scene, question number and agent.
 * The number is read as 1-based (q01 is the first question of the QA file) — an assumption,
 * used only when a record carries no question text.
 */
export function promptName(name: string): { scene: string; questionIndex: number; agent: string } | null {
  const m = /^([A-Za-z0-9]+)_q(\d+)_([A-Za-z]+)(?:\.[a-z]+)?$/.exec(name.trim());
  if (!m) return null;
  const n = Number(m[2]);
  return { scene: m[1]!, questionIndex: Math.max(0, n - 1), agent: m[3]! };
}

/** A value models wrote where a string belongs: booleans and numbers as text, anything else empty. */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  return '';
}

export const problem = (severity: Problem['severity'], code: string, file: string, location: string, message: string): Problem => ({
  severity,
  code,
  file,
  location,
  message,
});
