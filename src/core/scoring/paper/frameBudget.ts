/**
 * CapNav's Figure 6: a model run at several frame budgets is several model settings whose names
 * carry the budget (`gemini-2.5-pro_16f`, `…_32f`, `…_64f`, `…_1fps`). These read the budget out
 * of a setting's name and group the settings of one model.
 */

/** A model setting's frame budget: the model without it, the budget as shown, and its place (frame counts up, then rates). */
export interface BudgetSetting {
  setting: string;
  model: string;
  budget: string;
  order: number;
}

// A separate `_`/`-` token: 16f, 16frames, 16-frames, 1fps, 0.5fps.
const BUDGET = /(^|[_-])(\d+(?:\.\d+)?)[_-]?(f|frames?|fps)(?=$|[_-])/i;

/** The budget a setting's name carries, or null. */
export function budgetOf(setting: string): BudgetSetting | null {
  const m = BUDGET.exec(setting);
  if (!m || m.index === 0) return null; // the budget alone names no model
  const n = Number(m[2]),
    fps = m[3]!.toLowerCase() === 'fps';
  const model = (setting.slice(0, m.index) + setting.slice(m.index + m[0].length)).replace(/[_-]+$/, '');
  return { setting, model, budget: fps ? `${m[2]} fps` : `${m[2]} frames`, order: fps ? 1e6 + n : n };
}

/** Model → its settings by budget (frame counts up, then rates), for models run at two budgets or more, in first-seen order. */
export function budgetGroups(settings: readonly string[]): { model: string; runs: BudgetSetting[] }[] {
  const groups = new Map<string, BudgetSetting[]>();
  for (const s of settings) {
    const b = budgetOf(s);
    if (b) groups.set(b.model, [...(groups.get(b.model) ?? []), b]);
  }
  return [...groups]
    .filter(([, runs]) => new Set(runs.map((r) => r.order)).size >= 2)
    .map(([model, runs]) => ({ model, runs: runs.sort((a, b) => a.order - b.order) }));
}

/** Every budget of the groups, in order. */
export function budgetsOf(groups: readonly { runs: readonly BudgetSetting[] }[]): string[] {
  const seen = new Map<string, number>();
  for (const g of groups) for (const r of g.runs) seen.set(r.budget, r.order);
  return [...seen].sort((a, b) => a[1] - b[1]).map(([b]) => b);
}
