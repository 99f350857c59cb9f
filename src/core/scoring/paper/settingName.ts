/**
 * What a model setting's name says about its run: the model, the frame budget (`gemini-2.5-pro_16f`,
 * `…_32f`, `…_1fps`) and the spatial inputs added to the frames (`gpt-4o_16f_with-depth+graph`, the
 * folder `run-model` writes for `eval-inputs --with depth,graph`). Read from the name alone.
 */

import { SPATIAL_PARTS as INPUT_PARTS, type SpatialPart as InputPart } from '../../evalinputs/types.ts';

/** A setting's name read: the model without budget and inputs; the budget as shown (null: none) and its place; the inputs in canonical order and their label. */
export interface SettingName {
  setting: string;
  model: string;
  budget: string | null;
  order: number;
  parts: InputPart[];
  variant: string;
}

// A separate `_`/`-` token: 16f, 16frames, 16-frames, 1fps, 0.5fps.
const BUDGET = /(^|[_-])(\d+(?:\.\d+)?)[_-]?(f|frames?|fps)(?=$|[_-])/i;
// A separate `_` token: with-depth, with-depth+map+graph.
const VARIANT = /_with-([a-z+]*)(?=$|_)/i;

/** How a variant is shown: "frames only", "+depth", "+depth +graph". */
export function variantLabel(parts: readonly InputPart[]): string {
  return parts.length ? parts.map((p) => `+${p}`).join(' ') : 'frames only';
}

/** Fewer inputs first, then in canonical order (frames only, +depth, +map, +graph, +depth +map, …). */
export function compareParts(a: readonly InputPart[], b: readonly InputPart[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return INPUT_PARTS.indexOf(a[i]!) - INPUT_PARTS.indexOf(b[i]!);
  return 0;
}

/** The name without its `with-` token and the inputs it names; a token naming an unknown, repeated or no input is no variant (it stays in the model's name). */
function readVariant(name: string): { rest: string; parts: InputPart[] } {
  const m = VARIANT.exec(name);
  const named = m?.[1]!.toLowerCase().split('+') ?? [];
  const parts = INPUT_PARTS.filter((p) => named.includes(p));
  if (!m || !m.index || parts.length !== named.length) return { rest: name, parts: [] };
  return { rest: name.slice(0, m.index) + name.slice(m.index + m[0].length), parts };
}

/** A setting's model, budget and input variant, read from its name. */
export function readSetting(setting: string): SettingName {
  const { rest, parts } = readVariant(setting);
  const m = BUDGET.exec(rest);
  const base = { setting, parts, variant: variantLabel(parts) };
  if (!m || m.index === 0) return { ...base, model: rest, budget: null, order: Infinity }; // the budget alone names no model
  const n = Number(m[2]),
    fps = m[3]!.toLowerCase() === 'fps';
  const model = (rest.slice(0, m.index) + rest.slice(m.index + m[0].length)).replace(/[_-]+$/, '');
  return { ...base, model, budget: fps ? `${m[2]} fps` : `${m[2]} frames`, order: fps ? 1e6 + n : n };
}

/** Read settings grouped by `key`, each group in first-seen order, then ordered by `order` (stable). */
export function groupSettings<T extends SettingName>(settings: readonly T[], key: (s: T) => string, order: (a: T, b: T) => number): T[][] {
  const groups = new Map<string, T[]>();
  for (const s of settings) groups.set(key(s), [...(groups.get(key(s)) ?? []), s]);
  return [...groups.values()].sort((a, b) => order(a[0]!, b[0]!));
}
