import { budgetGroups, budgetsOf } from '../../../../core/scoring/paper/frameBudget.ts';
import { variantGroups, variantsOf } from '../../../../core/scoring/paper/inputVariant.ts';
import type { LiteReport } from '../../../../core/scoring/paper/lite.ts';
import { HBarChart, type Series } from './HBarChart.tsx';
import { chartCaption, Exportable, metricBar } from './Exportable.tsx';
import { append } from '../../../../core/arrays.ts';

const PANEL = 525;
/** Budgets drawn in a ramp, fewest frames lightest; rates last. */
const BUDGET_COLOURS = ['#9ecae1', '#4292c6', '#08519c', '#e76f51', '#6d597a', '#2a9d8f'] as const;
/** Input variants: frames only grey, then one colour each. */
const VARIANT_COLOURS = ['#adb5bd', '#0f766e', '#e9c46a', '#3a0ca3', '#e76f51', '#b5838d', '#264653', '#6d597a'] as const;

/**
 * CapNav's Figure 6: the CapNav score of each model at each frame budget, from model settings
 * named with their budget (`…_16f`, `…_32f`, `…_64f`, `…_1fps`), one row per model and input
 * variant (`gpt-4o +depth`). Every scored model takes part, not only the charted ones; without such
 * names the view says how to get the chart.
 */
export function BudgetChart({ reports, project }: { reports: [string, LiteReport][]; project: string }) {
  const groups = budgetGroups(reports.map(([m]) => m));
  if (!groups.length) {
    return (
      <p className="muted" data-testid="chart-budget-empty">
        Score by frame budget (the paper’s Figure 6): no model was scored at two frame budgets. Name each run’s folder with its budget —{' '}
        <code>gemini-2.5-pro_16f</code>, <code>…_32f</code>, <code>…_64f</code>, <code>…_1fps</code> — to compare them here.
      </p>
    );
  }
  const series: Series[] = budgetsOf(groups).map((b, i) => ({ name: b, colour: BUDGET_COLOURS[i % BUDGET_COLOURS.length]! }));
  return (
    <RunGroupsChart name="chart-budget" title="CapNav by frame budget (%), per model" {...{ groups, series, reports, project }} seriesOf={(r) => r.budget} />
  );
}

/** CapNav per run, a row per group and a bar per series (`seriesOf` a run: its budget, its variant); "not run" where a group lacks one. */
function RunGroupsChart<R extends { setting: string }>(p: {
  name: string;
  title: string;
  groups: readonly { label: string; runs: readonly R[] }[];
  series: Series[];
  seriesOf: (run: R) => string | null;
  reports: [string, LiteReport][];
  project: string;
}) {
  const report = new Map(p.reports);
  const caption = chartCaption(
    p.project,
    p.groups.flatMap((g) => g.runs.map((r) => r.setting)),
    p.reports[0]![1].settings,
  );
  return (
    <Exportable name={p.name} caption={caption}>
      <HBarChart
        title={p.title}
        rows={p.groups.map((g) => g.label)}
        series={p.series}
        max={100}
        width={PANEL}
        labelWidth={190}
        testId={p.name}
        datum={(row, s) => {
          const run = p.groups.find((g) => g.label === row)!.runs.find((r) => p.seriesOf(r) === s.name);
          return run ? metricBar(report.get(run.setting)!.headline, 'capnav') : { v: null, text: 'not run' };
        }}
      />
    </Exportable>
  );
}

/**
 * Issue 27 §5: the CapNav score of each model at each budget by the spatial inputs beside its frames,
 * from model settings named as run-model names them (`gpt-4o_16f`, `gpt-4o_16f_with-depth+graph`).
 * Every scored model takes part; without such names the view says how to get the chart.
 */
export function VariantChart({ reports, project }: { reports: [string, LiteReport][]; project: string }) {
  const groups = variantGroups(reports.map(([m]) => m));
  if (!groups.length) {
    return (
      <p className="muted" data-testid="chart-variant-empty">
        Score by input variant: no model was scored at one budget with and without spatial inputs. Write the inputs with{' '}
        <code>cli eval-inputs --with depth,map,graph</code> and run <code>cli run-model</code> on them (its results folder is named{' '}
        <code>gpt-4o_16f_with-depth+graph</code>), or name a run’s folder <code>…_with-depth</code>, <code>…_with-map</code>, <code>…_with-graph</code> beside
        the run without them.
      </p>
    );
  }
  const series: Series[] = variantsOf(groups).map((v, i) => ({ name: v, colour: VARIANT_COLOURS[i % VARIANT_COLOURS.length]! }));
  return (
    <RunGroupsChart
      name="chart-variant"
      title="CapNav by input variant (%), per model and budget"
      {...{ groups, series, reports, project }}
      seriesOf={(r) => r.variant}
    />
  );
}

/**
 * Score by path length: each charted model's CapNav score over the tasks whose shortest route on
 * the graph has 1, 2, … hops (the task's length, whatever the agent and whatever the model walked).
 */
export function PathLengthChart({ shown, series, project }: { shown: [string, LiteReport][]; series: Series[]; project: string }) {
  const rows: string[] = [];
  const hops = new Map<string, number>();
  for (const [, r] of shown) for (const b of r.byPathLength ?? []) if (!hops.has(b.label)) hops.set(b.label, b.hops ?? Infinity);
  append(
    rows,
    [...hops].sort((a, b) => a[1] - b[1]).map(([l]) => l),
  );
  if (!rows.length) return null;
  const report = new Map(shown);
  return (
    <Exportable
      name="chart-length"
      caption={chartCaption(
        project,
        shown.map(([m]) => m),
        shown[0]![1].settings,
      )}
    >
      <HBarChart
        title="CapNav by task length (hops of the shortest route on the graph, %)"
        rows={rows}
        series={series}
        max={100}
        width={PANEL}
        labelWidth={100}
        testId="chart-length"
        datum={(row, s) => metricBar(report.get(s.name)!.byPathLength.find((b) => b.label === row)?.metrics, 'capnav')}
      />
    </Exportable>
  );
}
