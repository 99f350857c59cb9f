import { Fragment, useMemo } from 'react';
import { agentOrder } from '../../../core/agents.ts';
import type { LiteReport } from '../../../core/scoring/paper/lite.ts';
import { readSetting } from '../../../core/scoring/paper/settingName.ts';
import { thinComponents, THIN_N, type ThinNote } from '../../../core/scoring/paper/thin.ts';
import { useStudio, useStudioShallow, useStudioStore } from '../../../state/useStudio.ts';
import { unjudgedText } from '../../../core/scoring/paper/unjudged.ts';
import { openRecord } from '../state/links.ts';
import { count, MetricCell } from './metricCell.tsx';
import { METRIC_LABEL, whyRecord } from './thinNotes.ts';
import { pickModel } from '../state/scoreSession.ts';

/**
 * CapNav Table 2's shape: one row per model (with its frame budget and input variant when the
 * settings' names carry them), Feas-F1 · PV · RTA · RV · CapNav, then one column per agent — each
 * figure with its n, and under a model the per-agent figures that rest on a handful of records,
 * with those records and why they matter.
 */
export function ScoreTable() {
  const store = useStudioStore();
  const reports = useStudio((s) => s.scoring.reports);
  const selected = useStudio((s) => s.scoring.selectedModel);
  const compare = useStudio((s) => s.scoring.compareModel);
  const project = useStudio((s) => s.document.project);
  const profiles = useStudioShallow((s) => s.document.project?.profiles ?? []);
  const thin = useMemo(() => new Map(reports.map(([m, r]) => [m, thinComponents(r.rows, r.perAgent)])), [reports]);
  if (!reports.length) return null;
  const agents = agentOrder(profiles).filter((a) => reports.some(([, r]) => r.perAgent[a]));
  const pick = (model: string, which: 'selectedModel' | 'compareModel') => pickModel(store, model, which);
  const settings = reports[0]![1].settings;
  // A setting's budget and input variant (`gpt-4o_16f_with-depth`), in columns of their own when some name carries them.
  const named = new Map(reports.map(([m]) => [m, readSetting(m)]));
  const budgets = [...named.values()].some((s) => s.budget !== null);
  const inputs = [...named.values()].some((s) => s.parts.length > 0);
  const cols = 8 + agents.length + Number(budgets) + Number(inputs);
  return (
    <div className="score-table">
      <table className="table" data-testid="score-table">
        <thead>
          <tr>
            <th>Model</th>
            {budgets && <th>Budget</th>}
            {inputs && <th>Inputs</th>}
            <th>Feas-F1</th>
            <th>PV</th>
            <th>RTA</th>
            <th>RV</th>
            <th>CapNav</th>
            {agents.map((a) => (
              <th key={a}>{a}</th>
            ))}
            <th>records</th>
            <th>compare</th>
          </tr>
        </thead>
        <tbody>
          {reports.map(([model, r]: [string, LiteReport]) => {
            const h = r.headline;
            const notes = thin.get(model) ?? [];
            const thinAgent = (a: string) => notes.filter((x) => x.agent === a);
            return (
              <Fragment key={model}>
                <tr data-model={model} className={model === selected ? 'selected' : ''} onClick={() => pick(model, 'selectedModel')}>
                  <th scope="row">{model}</th>
                  {budgets && <td data-col="budget">{named.get(model)!.budget ?? '–'}</td>}
                  {inputs && <td data-col="inputs">{named.get(model)!.variant}</td>}
                  {(['f1', 'pv', 'rta', 'rv'] as const).map((k) => (
                    <td key={k} data-col={k}>
                      <MetricCell m={h} k={k} />
                    </td>
                  ))}
                  <td data-col="capnav">
                    <MetricCell m={h} k="capnav" strong />
                  </td>
                  {agents.map((a) => {
                    const m = r.perAgent[a];
                    const t = thinAgent(a);
                    return (
                      <td key={a} data-col={`agent-${a}`} title={t.length ? t.map((x) => `${METRIC_LABEL[x.metric]} rests on ${x.n}`).join('; ') : undefined}>
                        {m ? <MetricCell m={m} k="capnav" /> : '–'}
                        {t.length > 0 && (
                          <span className="thin-mark" data-testid="thin-mark">
                            {' '}
                            ⚠ {t.map((x) => `${METRIC_LABEL[x.metric]} n ${x.n}`).join(', ')}
                          </span>
                        )}
                      </td>
                    );
                  })}
                  <td data-col="records">
                    {count(h.n.records)}
                    {r.duplicates?.tasks > 0 && (
                      <span className="warn dup" title="tasks predicted more than once (see the notice above)">
                        {count(r.duplicates.tasks)} twice+
                      </span>
                    )}
                  </td>
                  <td>
                    <input
                      type="radio"
                      name="compare"
                      checked={model === compare}
                      aria-label={`compare with ${model}`}
                      onClick={(e) => e.stopPropagation()}
                      onChange={() => pick(model, 'compareModel')}
                    />
                  </td>
                </tr>
                {r.unjudged?.count > 0 && (
                  <tr className="unjudged-note" data-unjudged-for={model}>
                    <td colSpan={cols}>
                      <p className="warn" data-testid="unjudged">
                        {unjudgedText(r.unjudged, r.counts.records)}
                      </p>
                    </td>
                  </tr>
                )}
                {notes.length > 0 && (
                  <tr className="thin-notes" data-notes-for={model}>
                    <td colSpan={cols}>
                      <ThinNotes model={model} notes={notes} why={(rec) => whyRecord(project, rec)} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <p className="hint">
        Percentages; {settings.averaging === 'macro' ? 'macro average over agents' : 'all records pooled (micro)'}; λ = {settings.weights.f1}/
        {settings.weights.pv}/{settings.weights.rta}/{settings.weights.rv}; RV by the {settings.judge.label}
        {settings.bootstrap.resamples
          ? `; ${Math.round(settings.bootstrap.level * 100)} % bootstrap intervals from ${settings.bootstrap.resamples} resamples`
          : ''}
        . n: the records a figure rests on (Feas-F1 and CapNav: all; PV: parseable answers; RTA: “yes” with a valid path; RV: “no” answers). ⚠: a per-agent
        component on {THIN_N} records or fewer.
      </p>
    </div>
  );
}

function ThinNotes({ model, notes, why }: { model: string; notes: ThinNote[]; why: (r: ThinNote['records'][number]) => string | null }) {
  const store = useStudioStore();
  return (
    <ul className="thin-list" data-testid="thin-notes">
      {notes.map((x) => (
        <li key={`${x.agent}:${x.metric}`} data-agent={x.agent} data-metric={x.metric}>
          {METRIC_LABEL[x.metric]} for <strong>{x.agent}</strong> rests on n = {x.n}:{' '}
          {x.records.map((rec, i) => {
            const because = why(rec);
            return (
              <span key={rec.id}>
                {i ? '; ' : ''}
                <button className="link" onClick={() => openRecord(store, model, rec.id)} data-testid="thin-record">
                  {rec.scene} #{rec.questionIndex ?? '–'}
                </button>
                {because && <span className="why"> — {because}</span>}
              </span>
            );
          })}
        </li>
      ))}
    </ul>
  );
}
