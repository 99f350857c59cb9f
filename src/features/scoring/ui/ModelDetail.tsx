import type { LiteReport } from '../../../core/scoring/paper/lite.ts';
import type { MetricSet } from '../../../core/scoring/paper/types.ts';
import { useStudio } from '../../../state/useStudio.ts';
import { chartedModels, MODEL_COLOURS } from './charts/ScoreCharts.tsx';
import { THIN_N } from '../../../core/scoring/paper/thin.ts';
import { nOf } from '../../../core/scoring/paper/thin.ts';
import { count, MetricCell } from './metricCell.tsx';

const Row = ({ name, m, testId }: { name: string; m: MetricSet; testId?: string }) => (
  <tr data-agent={testId ?? name}>
    <th scope="row">{name}</th>
    <td data-col="records">{count(m.n.records)}</td>
    {(['f1', 'pv', 'rta', 'rv'] as const).map((k) => (
      <td key={k} data-col={k}>
        <MetricCell m={m} k={k} thin={nOf(m, k) > 0 && nOf(m, k) <= THIN_N} />
      </td>
    ))}
    <td data-col="capnav">
      <MetricCell m={m} k="capnav" strong />
    </td>
  </tr>
);

/** One model's figures per agent, as the command line prints them: every component with its interval and n. */
function Detail({ model, r, colour }: { model: string; r: LiteReport; colour: string }) {
  return (
    <div className="model-detail" data-testid="model-detail" data-model={model}>
      <h3>
        <span className="sw" style={{ background: colour }} /> {model}
      </h3>
      <table className="table per-agent" data-testid="per-agent">
        <thead>
          <tr>
            <th>agent</th>
            <th>records</th>
            <th>Feas-F1</th>
            <th>PV</th>
            <th>RTA</th>
            <th>RV</th>
            <th>CapNav</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(r.perAgent).map(([a, m]) => (
            <Row key={a} name={a} m={m} />
          ))}
          <Row name="overall (micro)" m={r.overall} testId="overall" />
          <Row name="macro over agents" m={r.macro} testId="macro" />
        </tbody>
      </table>
      <p className="muted">
        {count(r.counts.unmatched)} unmatched prediction{r.counts.unmatched === 1 ? '' : 's'} (listed, never dropped) · {r.excludedHallucinated} on hallucinated
        questions · {r.excludedUnresolved} on unresolved questions
        {Object.values(r.errorCounts).some((v) => v > 0) && (
          <>
            {' '}
            · errors:{' '}
            {Object.entries(r.errorCounts)
              .filter(([, v]) => v > 0)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')}
          </>
        )}
      </p>
    </div>
  );
}

/** The charted models' per-agent tables, in the charts' colours. */
export function ModelDetails() {
  const reports = useStudio((s) => s.scoring.reports);
  const selected = useStudio((s) => s.scoring.selectedModel);
  const compare = useStudio((s) => s.scoring.compareModel);
  const shown = chartedModels(reports, selected, compare).slice(0, 2);
  return (
    <div className="model-details">
      {shown.map(([m, r], i) => (
        <Detail key={m} model={m} r={r} colour={MODEL_COLOURS[i]!} />
      ))}
    </div>
  );
}
