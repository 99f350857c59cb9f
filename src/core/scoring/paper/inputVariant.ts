/**
 * Issue 27 §5: a model run with spatial inputs beside its frames (`eval-inputs --with depth,map,graph`,
 * then `run-model`) is a model setting named `<model>_<budget>_with-<parts>` (`gpt-4o_16f_with-depth+graph`);
 * without them it keeps `<model>_<budget>`. These group the runs of one model at one budget by input variant.
 */
import { compareParts, groupSettings, readSetting, type SettingName } from './settingName.ts';

/** One model at one budget (null: its name carries none) with its runs by input variant; `label` names both ("gpt-4o · 16 frames"). */
export interface VariantGroup {
  model: string;
  budget: string | null;
  label: string;
  runs: SettingName[];
}

/**
 * (Model, budget) → its settings by input variant (frames only first, then by the number of
 * inputs, then depth, map, graph), for those run with two variants or more: models in first-seen
 * order, a model's budgets frame counts up, then rates, then none.
 */
export function variantGroups(settings: readonly string[]): VariantGroup[] {
  const runs = settings.map(readSetting);
  const models = [...new Set(runs.map((r) => r.model))];
  return groupSettings(
    runs,
    (r) => `${r.model}\n${r.budget ?? ''}`,
    (a, b) => models.indexOf(a.model) - models.indexOf(b.model) || (a.order === b.order ? 0 : a.order < b.order ? -1 : 1),
  )
    .filter((g) => new Set(g.map((r) => r.variant)).size >= 2)
    .map((g) => {
      const { model, budget } = g[0]!;
      return { model, budget, label: budget ? `${model} · ${budget}` : model, runs: g.sort((a, b) => compareParts(a.parts, b.parts)) };
    });
}

/** Every input variant of the groups, in order. */
export function variantsOf(groups: readonly { runs: readonly SettingName[] }[]): string[] {
  const seen = new Map<string, SettingName['parts']>();
  for (const g of groups) for (const r of g.runs) seen.set(r.variant, r.parts);
  return [...seen].sort((a, b) => compareParts(a[1], b[1])).map(([v]) => v);
}
