import { REASONS, REASON_LABEL } from '../../core/rules.ts';
import { FAILURE_MODES } from '../../core/scoring/paper/types.ts';
import type { LiteReport } from '../../core/scoring/paper/lite.ts';
import { useStudio } from '../../state/useStudio.ts';

const pct = (x: number | null) => (x === null ? '–' : `${x.toFixed(1)} %`);

function Detail({ model, r }: { model: string; r: LiteReport }) {
  const c = r.confusion;
  return (
    <div className="model-detail" data-testid="model-detail" data-model={model}>
      <h3>{model}</h3>
      <table className="table confusion" data-testid="confusion">
        <caption>Confusion (feasibility)</caption>
        <thead><tr><th /><th>GT feasible</th><th>GT infeasible</th></tr></thead>
        <tbody>
          <tr><th scope="row">said yes</th><td data-cell="tp">{c.tp}</td><td data-cell="fp">{c.fp}</td></tr>
          <tr><th scope="row">said no / unparseable</th><td data-cell="fn">{c.fn}</td><td data-cell="tn">{c.tn}</td></tr>
        </tbody>
      </table>
      <table className="table" data-testid="by-obstacle">
        <caption>Accuracy by obstacle type (infeasible tasks: "no" with an accepted reason)</caption>
        <tbody>
          {REASONS.filter((k) => r.byObstacle[k]?.n).map((k) => (
            <tr key={k} data-obstacle={k}><th scope="row">{REASON_LABEL[k]}</th><td>{pct(r.byObstacle[k]!.accuracy)}</td><td className="muted">{r.byObstacle[k]!.correct}/{r.byObstacle[k]!.n}</td></tr>
          ))}
        </tbody>
      </table>
      <table className="table" data-testid="failure-modes">
        <caption>Failure modes</caption>
        <tbody>{FAILURE_MODES.map((m) => <tr key={m} data-mode={m}><th scope="row">{m.replace('-', ' ')}</th><td>{r.failureModes[m]}</td></tr>)}</tbody>
      </table>
      <p className="muted">{r.counts.unmatched} unmatched prediction{r.counts.unmatched === 1 ? '' : 's'} (listed, never dropped) · {r.excludedHallucinated} on hallucinated questions · {r.excludedUnresolved} on unresolved questions
        {Object.keys(r.errorCounts).length > 0 && <> · errors: {Object.entries(r.errorCounts).map(([k, v]) => `${k} ${v}`).join(', ')}</>}</p>
    </div>
  );
}

/** The selected model beside the one chosen to compare with. */
export function ModelDetails() {
  const reports = useStudio((s) => s.scoring.reports);
  const selected = useStudio((s) => s.scoring.selectedModel);
  const compare = useStudio((s) => s.scoring.compareModel);
  const shown = [selected, compare !== selected ? compare : null].filter((m): m is string => !!m);
  return (
    <div className="model-details">
      {shown.map((m) => { const r = reports.find(([x]) => x === m)?.[1]; return r ? <Detail key={m} model={m} r={r} /> : null; })}
    </div>
  );
}
