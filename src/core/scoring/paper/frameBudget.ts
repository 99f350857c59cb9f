/**
 * CapNav's Figure 6: a model run at several frame budgets is several model settings whose names
 * carry the budget (`gemini-2.5-pro_16f`, `…_32f`, `…_64f`, `…_1fps`). These group the settings of
 * one model with the same input variant (`gpt-4o_16f_with-depth` and `gpt-4o_32f_with-depth` apart
 * from `gpt-4o_16f` and `gpt-4o_32f`).
 */
import { compareParts, groupSettings, readSetting, type SettingName } from './settingName.ts';

/** A model setting with a frame budget: the model without it, the budget as shown, and its place (frame counts up, then rates). */
export interface BudgetSetting extends SettingName {
  budget: string;
}

/** The budget a setting's name carries, or null. */
export function budgetOf(setting: string): BudgetSetting | null {
  const s = readSetting(setting);
  return s.budget === null ? null : (s as BudgetSetting);
}

/** One model with one input variant at its budgets; `label` names both ("gpt-4o", "gpt-4o +depth"). */
export interface BudgetGroup {
  model: string;
  variant: string;
  label: string;
  runs: BudgetSetting[];
}

/**
 * (Model, input variant) → its settings by budget (frame counts up, then rates), for those run at
 * two budgets or more: models in first-seen order, a model's variants frames only first.
 */
export function budgetGroups(settings: readonly string[]): BudgetGroup[] {
  const runs = settings.map(budgetOf).filter((b): b is BudgetSetting => !!b);
  const models = [...new Set(runs.map((r) => r.model))];
  return groupSettings(
    runs,
    (r) => `${r.model}\n${r.parts.join('+')}`,
    (a, b) => models.indexOf(a.model) - models.indexOf(b.model) || compareParts(a.parts, b.parts),
  )
    .filter((g) => new Set(g.map((r) => r.order)).size >= 2)
    .map((g) => {
      const { model, parts, variant } = g[0]!;
      return { model, variant, label: parts.length ? `${model} ${variant}` : model, runs: g.sort((a, b) => a.order - b.order) };
    });
}

/** Every budget of the groups, in order. */
export function budgetsOf(groups: readonly { runs: readonly BudgetSetting[] }[]): string[] {
  const seen = new Map<string, number>();
  for (const g of groups) for (const r of g.runs) seen.set(r.budget, r.order);
  return [...seen].sort((a, b) => a[1] - b[1]).map(([b]) => b);
}
