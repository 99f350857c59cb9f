import { useMemo } from 'react';
import { FAILURE_MODES } from '../../core/scoring/paper/types.ts';
import { rowAt, type RecordRow } from '../../core/scoring/paper/lite.ts';
import { useStudio, useStudioStore } from '../../state/useStudio.ts';
import { cachedFilteredIndices, selectedColumns } from '../../state/scoreSelectors.ts';

const SHOWN = 200;

/** Every record of the model, filterable; click one (or , and .) to see its route. */
export function RecordTable() {
  const store = useStudioStore();
  const indices = useStudio(cachedFilteredIndices);
  const columns = useStudio(selectedColumns);
  const filter = useStudio((s) => s.scoring.filter);
  const selected = useStudio((s) => s.scoring.selectedRecord);
  const agents = useMemo(() => [...(columns?.agents ?? [])].sort(), [columns]);
  const shown = useMemo(() => (columns ? indices.slice(0, SHOWN).map((i) => rowAt(columns, i)) : []), [columns, indices]);
  const setFilter = (patch: Partial<typeof filter>) => store.setState((s) => ({ scoring: { ...s.scoring, filter: { ...s.scoring.filter, ...patch } } }));
  const select = (r: RecordRow) => store.setState((s) => ({ scoring: { ...s.scoring, selectedRecord: r.id } }));
  return (
    <div className="record-table">
      <div className="filters">
        <select value={filter.agent} aria-label="Filter by agent" onChange={(e) => setFilter({ agent: e.target.value })}><option value="all">all agents</option>{agents.map((a) => <option key={a}>{a}</option>)}</select>
        <select value={filter.outcome} aria-label="Filter by outcome" onChange={(e) => setFilter({ outcome: e.target.value })}>
          <option value="all">all outcomes</option><option value="TP">TP</option><option value="FP">FP</option><option value="TN">TN</option><option value="FN">FN</option><option value="unmatched">unmatched / excluded</option>
        </select>
        <select value={filter.failure} aria-label="Filter by failure mode" onChange={(e) => setFilter({ failure: e.target.value })}><option value="all">any failure mode</option>{FAILURE_MODES.map((m) => <option key={m}>{m}</option>)}</select>
        <input placeholder="search question, reason, path" value={filter.text} aria-label="Search records" onChange={(e) => setFilter({ text: e.target.value })} />
        <span className="muted">{indices.length} record{indices.length === 1 ? '' : 's'}{indices.length > SHOWN ? ` (first ${SHOWN} shown)` : ''}</span>
      </div>
      <table className="table records" data-testid="records">
        <thead><tr><th>Scene</th><th>#</th><th>Agent</th><th>Answer</th><th>GT</th><th>Outcome</th><th>PV</th><th>RTA</th><th>RV</th><th>Failure modes</th></tr></thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.id} data-record={r.id} className={r.id === selected ? 'selected' : ''} onClick={() => select(r)}>
              <td>{r.scene}</td><td>{r.questionIndex ?? '–'}</td><td>{r.agent}</td><td>{r.answer ?? '(unparseable)'}</td>
              <td>{r.gtFeasible === null ? '–' : r.gtFeasible ? 'yes' : 'no'}</td><td>{r.status === 'scored' ? r.outcome : r.status}</td>
              <td>{r.pathValid === null ? '–' : r.pathValid ? '✓' : '✗'}</td><td>{r.rta === null ? '–' : r.rta.toFixed(2)}</td><td>{r.rv === null ? '–' : r.rv}</td>
              <td>{r.failureModes.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
