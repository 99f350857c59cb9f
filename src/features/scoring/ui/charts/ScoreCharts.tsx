import { agentOrder } from '../../../../core/agents.ts';
import { chartCaption, Exportable, metricBar } from './Exportable.tsx';
import { BudgetChart, PathLengthChart, VariantChart } from './StudyCharts.tsx';
import { REASONS, REASON_LABEL } from '../../../../core/rules.ts';
import type { LiteReport } from '../../../../core/scoring/paper/lite.ts';
import { FAILURE_MODES, type MetricName, type MetricSet } from '../../../../core/scoring/paper/types.ts';
import { useStudio, useStudioShallow } from '../../../../state/useStudio.ts';
import { count } from '../metricCell.tsx';
import { ConfusionChart } from './ConfusionChart.tsx';
import { HBarChart, type BarDatum, type Series } from './HBarChart.tsx';
import { METRIC_LABEL } from '../thinNotes.ts';

/** Models in the charts: the selected one, the one compared with, then others (at most eight in all; the view names the rest). */
export const MODEL_COLOURS = ['#0f766e', '#e76f51', '#3a0ca3', '#6d597a', '#b5838d', '#2a9d8f', '#e9c46a', '#264653'] as const;
const PANEL = 350;
const METRIC_TITLE: [MetricName, string][] = [...(Object.entries(METRIC_LABEL) as [MetricName, string][]), ['capnav', 'CapNav']];
const ALL = 'all records';

/** The models the charts draw, in the order of their colours. */
export function chartedModels(reports: [string, LiteReport][], selected: string | null, compare: string | null): [string, LiteReport][] {
  const order = [selected, compare, ...reports.map(([m]) => m)].filter((m, i, xs): m is string => !!m && xs.indexOf(m) === i);
  return order
    .slice(0, MODEL_COLOURS.length)
    .map((m) => reports.find(([x]) => x === m))
    .filter((x): x is [string, LiteReport] => !!x);
}

/**
 * The Score view's figures drawn: per agent F1, PV, RTA, RV and the composite with their intervals
 * and n, the confusion matrices, accuracy by obstacle type and failure modes — every charted model
 * side by side in its colour.
 */
export function ScoreCharts() {
  const reports = useStudio((s) => s.scoring.reports);
  const selected = useStudio((s) => s.scoring.selectedModel);
  const compare = useStudio((s) => s.scoring.compareModel);
  const profiles = useStudioShallow((s) => s.document.project?.profiles ?? []);
  const projectName = useStudio((s) => s.document.project?.name ?? '');
  if (!reports.length) return null;
  const shown = chartedModels(reports, selected, compare);
  const series: Series[] = shown.map(([name], i) => ({ name, colour: MODEL_COLOURS[i]! }));
  const report = (s: Series) => shown.find(([m]) => m === s.name)![1];
  const agents = agentOrder(profiles).filter((a) => shown.some(([, r]) => r.perAgent[a]));
  const averaging = reports[0]![1].settings.averaging;
  const rows = [...agents, ALL];
  const set = (r: LiteReport, row: string): MetricSet | undefined => (row === ALL ? r.headline : r.perAgent[row]);
  const metricDatum =
    (k: MetricName) =>
    (row: string, s: Series): BarDatum =>
      metricBar(set(report(s), row), k);
  const obstacles = REASONS.filter((c) => shown.some(([, r]) => r.byObstacle[c]?.n));
  const st = reports[0]![1].settings;
  const caption = chartCaption(
    projectName,
    shown.map(([m]) => m),
    st,
  );
  return (
    <section className="score-charts" data-testid="score-charts" aria-label="Charts">
      <p className="chart-legend" data-testid="chart-legend">
        {series.map((s) => (
          <span key={s.name} data-model={s.name}>
            <span className="sw" style={{ background: s.colour }} /> {s.name}
          </span>
        ))}
        {reports.length > shown.length && (
          <span className="warn" data-testid="charts-hidden">
            {' '}
            · not charted ({reports.length - shown.length}):{' '}
            {reports
              .filter(([m]) => !shown.some(([x]) => x === m))
              .map(([m]) => m)
              .join(', ')}{' '}
            — select or compare a model in the table to chart it
          </span>
        )}
        <span className="muted">
          {' '}
          · whiskers: bootstrap intervals (set resamples above) · n: records each figure rests on · “{ALL}”:{' '}
          {averaging === 'macro' ? 'macro over agents' : 'pooled (micro)'}
        </span>
      </p>
      <div className="chart-grid">
        {METRIC_TITLE.map(([k, title]) => (
          <Exportable key={k} name={`chart-${k}`} caption={caption}>
            <HBarChart title={`${title} per agent (%)`} rows={rows} series={series} datum={metricDatum(k)} max={100} width={PANEL} testId={`chart-${k}`} />
          </Exportable>
        ))}
        <div className="confusions">
          {shown.map(([m, r], i) => (
            <ConfusionChart key={m} model={m} colour={MODEL_COLOURS[i]!} c={r.confusion} />
          ))}
        </div>
        {obstacles.length > 0 && (
          <Exportable name="chart-obstacles" caption={caption}>
            <HBarChart
              title="Accuracy by obstacle type (infeasible tasks: “no” with an accepted reason, %)"
              rows={obstacles.map((c) => REASON_LABEL[c])}
              series={series}
              max={100}
              width={PANEL * 1.5}
              labelWidth={150}
              testId="chart-obstacles"
              datum={(row, s) => {
                const o = report(s).byObstacle[obstacles.find((c) => REASON_LABEL[c] === row)!];
                return o?.n
                  ? { v: o.accuracy, text: `${o.accuracy === null ? '–' : o.accuracy.toFixed(1)} (${o.correct}/${o.n})` }
                  : { v: null, text: 'no tasks' };
              }}
            />
          </Exportable>
        )}
        <PathLengthChart shown={shown} series={series} project={projectName} />
        <BudgetChart reports={reports} project={projectName} />
        <VariantChart reports={reports} project={projectName} />
        <Exportable name="chart-failures" caption={caption}>
          <HBarChart
            title="Failure modes (records)"
            rows={FAILURE_MODES.map((m) => m.replace('-', ' '))}
            series={series}
            width={PANEL * 1.5}
            labelWidth={150}
            testId="chart-failures"
            datum={(row, s) => {
              const r = report(s);
              const v = r.failureModes[FAILURE_MODES.find((m) => m.replace('-', ' ') === row)!];
              return { v, text: `${count(v)} of ${count(r.counts.records)}` };
            }}
          />
        </Exportable>
      </div>
    </section>
  );
}
