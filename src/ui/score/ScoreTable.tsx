import { agentOrder } from '../../core/agents.ts';
import type { MetricSet } from '../../core/scoring/paper/types.ts';
import type { LiteReport } from '../../core/scoring/paper/lite.ts';
import { useStudio, useStudioShallow, useStudioStore } from '../../state/useStudio.ts';

const f = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));
const ci = (m: MetricSet, k: keyof NonNullable<MetricSet['ci']>) => (m.ci?.[k] ? ` [${m.ci[k]![0].toFixed(1)}, ${m.ci[k]![1].toFixed(1)}]` : '');

/** CapNav Table 2's shape: one row per model, Feas-F1 · PV · RTA · RV · CapNav, then one column per agent. */
export function ScoreTable() {
  const store = useStudioStore();
  const reports = useStudio((s) => s.scoring.reports);
  const selected = useStudio((s) => s.scoring.selectedModel);
  const compare = useStudio((s) => s.scoring.compareModel);
  const profiles = useStudioShallow((s) => s.document.project?.profiles ?? []);
  if (!reports.length) return null;
  const agents = agentOrder(profiles).filter((a) => reports.some(([, r]) => r.perAgent[a]));
  const pick = (model: string, which: 'selectedModel' | 'compareModel') => store.setState((s) => ({ scoring: { ...s.scoring, [which]: model, ...(which === 'selectedModel' ? { selectedRecord: null } : {}) } }));
  const settings = reports[0]![1].settings;
  return (
    <div className="score-table">
      <table className="table" data-testid="score-table">
        <thead>
          <tr><th>Model</th><th>Feas-F1</th><th>PV</th><th>RTA</th><th>RV</th><th>CapNav</th>{agents.map((a) => <th key={a}>{a}</th>)}<th>records</th><th>compare</th></tr>
        </thead>
        <tbody>
          {reports.map(([model, r]: [string, LiteReport]) => {
            const h = r.headline;
            return (
              <tr key={model} data-model={model} className={model === selected ? 'selected' : ''} onClick={() => pick(model, 'selectedModel')}>
                <th scope="row">{model}</th>
                <td data-col="f1">{f(h.f1)}{ci(h, 'f1')}</td><td data-col="pv">{f(h.pv)}{ci(h, 'pv')}</td><td data-col="rta">{f(h.rta)}{ci(h, 'rta')}</td>
                <td data-col="rv">{f(h.rv)}{ci(h, 'rv')}</td><td data-col="capnav"><strong>{f(h.capnav)}</strong>{ci(h, 'capnav')}</td>
                {agents.map((a) => <td key={a} data-col={`agent-${a}`}>{f(r.perAgent[a]?.capnav)}</td>)}
                <td>{h.n.records}</td>
                <td><input type="radio" name="compare" checked={model === compare} aria-label={`compare with ${model}`} onClick={(e) => e.stopPropagation()} onChange={() => pick(model, 'compareModel')} /></td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="hint">Percentages; {settings.averaging === 'macro' ? 'macro average over agents' : 'all records pooled (micro)'}; λ = {settings.weights.f1}/{settings.weights.pv}/{settings.weights.rta}/{settings.weights.rv}; RV by the {settings.judge.label}{settings.bootstrap.resamples ? `; ${Math.round(settings.bootstrap.level * 100)} % bootstrap intervals from ${settings.bootstrap.resamples} resamples` : ''}.</p>
    </div>
  );
}
