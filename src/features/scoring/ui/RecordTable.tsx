import { useEffect, useMemo, useState } from 'react';
import { FAILURE_MODES } from '../../../core/scoring/paper/types.ts';
import { rowAt, type RecordRow } from '../../../core/scoring/paper/lite.ts';

import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { cachedFilteredIndices, filterActive, selectedColumns } from '../state/scoreSelectors.ts';
import { useCommand } from '../../../ui/commands.ts';
import { openInScene, openRecord } from '../state/links.ts';
import { pickModel, setRecordFilter } from '../state/scoreSession.ts';

const SHOWN = 200;

/** A record worth opening in 3D: a wrong answer, an invalid route, a blocked hop taken, a rejected reason or a failure mode. */
export const isFailure = (r: RecordRow) =>
  r.status === 'scored' &&
  (r.outcome === 'FP' || r.outcome === 'FN' || r.pathValid === false || (r.rta !== null && r.rta < 1) || r.rv === 0 || r.failureModes.length > 0);

/** Every record of one model (named, chosen here), filterable; click one (or , and .) to open its route. */
export function RecordTable() {
  const store = useStudioStore();
  const scoringExportCsv = useCommand('score.exportCsv');
  const scoringExportJson = useCommand('score.exportJson');
  const scoringExportTable2 = useCommand('score.exportTable2');
  const indices = useStudio(cachedFilteredIndices);
  const columns = useStudio(selectedColumns);
  const filter = useStudio((s) => s.scoring.filter);
  const selected = useStudio((s) => s.scoring.selectedRecord);
  const model = useStudio((s) => s.scoring.selectedModel);
  const models = useStudio((s) => s.scoring.reports).map(([m]) => m);
  const agents = useMemo(() => [...(columns?.agents ?? [])].sort(), [columns]);
  // Pages of SHOWN records: every record can be reached; a new filter or model starts at the first page.
  const [page, setPage] = useState(0);
  useEffect(() => setPage(0), [indices, model]);
  const pages = Math.max(1, Math.ceil(indices.length / SHOWN));
  const at = Math.min(page, pages - 1);
  const shown = useMemo(() => (columns ? indices.slice(at * SHOWN, (at + 1) * SHOWN).map((i) => rowAt(columns, i)) : []), [columns, indices, at]);
  if (!model || !columns) return null;
  const setFilter = (patch: Partial<typeof filter>) => setRecordFilter(store, patch);
  const filtered = filterActive(filter);
  return (
    <div className="record-table" data-testid="record-table" data-model={model}>
      <h3 className="records-title">
        Records of{' '}
        <select value={model} aria-label="Records of model" data-testid="records-model" onChange={(e) => pickModel(store, e.target.value)}>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </h3>
      <div className="filters">
        <select value={filter.agent} aria-label="Filter by agent" onChange={(e) => setFilter({ agent: e.target.value })}>
          <option value="all">all agents</option>
          {agents.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
        <select value={filter.outcome} aria-label="Filter by outcome" onChange={(e) => setFilter({ outcome: e.target.value })}>
          <option value="all">all outcomes</option>
          <option value="TP">TP</option>
          <option value="FP">FP</option>
          <option value="TN">TN</option>
          <option value="FN">FN</option>
          <option value="unmatched">unmatched / excluded</option>
        </select>
        <select value={filter.failure} aria-label="Filter by failure mode" onChange={(e) => setFilter({ failure: e.target.value })}>
          <option value="all">any failure mode</option>
          {FAILURE_MODES.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <input
          placeholder="search question, reason, path"
          value={filter.text}
          aria-label="Search records"
          onChange={(e) => setFilter({ text: e.target.value })}
        />
        <span className="muted" data-testid="records-count">
          {indices.length.toLocaleString('en-US')} of {model}'s records
        </span>
        {pages > 1 && (
          <span className="pager" data-testid="records-pager">
            <button className="small secondary" disabled={at === 0} onClick={() => setPage(at - 1)} data-testid="records-previous">
              ‹ Previous {SHOWN}
            </button>
            <span className="muted" data-testid="records-page">
              {(at * SHOWN + 1).toLocaleString('en-US')}–{Math.min(indices.length, (at + 1) * SHOWN).toLocaleString('en-US')} (page {at + 1} of {pages})
            </span>
            <button className="small secondary" disabled={at >= pages - 1} onClick={() => setPage(at + 1)} data-testid="records-next">
              Next {SHOWN} ›
            </button>
          </span>
        )}
        <span className="export">
          <button className="small secondary" onClick={() => void scoringExportJson()} data-testid="export-json">
            Export JSON
          </button>
          <button
            className="small secondary"
            onClick={() => scoringExportTable2('csv')}
            data-testid="export-table2-csv"
            title="The paper's Table 2 of the scored models (as score --table2)"
          >
            Table 2 CSV
          </button>
          <button
            className="small secondary"
            onClick={() => scoringExportTable2('tex')}
            data-testid="export-table2-tex"
            title="The paper's Table 2 of the scored models, a LaTeX tabular (booktabs)"
          >
            Table 2 LaTeX
          </button>
          <button className="small secondary" onClick={() => void scoringExportCsv()} data-testid="export-csv">
            Export CSV
          </button>
          <span className="muted" data-testid="export-scope">
            {filtered ? `: the ${indices.length.toLocaleString('en-US')} records shown` : ': every model, every record'}
          </span>
        </span>
      </div>
      <table className="table records" data-testid="records">
        <thead>
          <tr>
            <th>Scene</th>
            <th>#</th>
            <th>Agent</th>
            <th>Answer</th>
            <th>GT</th>
            <th>Outcome</th>
            <th>PV</th>
            <th>RTA</th>
            <th>RV</th>
            <th>Failure modes</th>
            <th>Open</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr
              key={r.id}
              data-record={r.id}
              className={`${r.id === selected ? 'selected' : ''}${isFailure(r) ? ' failure' : ''}`}
              onClick={() => openRecord(store, model, r.id)}
            >
              <td>{r.scene}</td>
              <td>{r.questionIndex ?? '–'}</td>
              <td>{r.agent}</td>
              <td>{r.answer ?? '(unparseable)'}</td>
              <td>{r.gtFeasible === null ? '–' : r.gtFeasible ? 'yes' : 'no'}</td>
              <td>{r.status === 'scored' ? r.outcome : r.status}</td>
              <td>{r.pathValid === null ? '–' : r.pathValid ? '✓' : '✗'}</td>
              <td>{r.rta === null ? '–' : r.rta.toFixed(2)}</td>
              <td>{r.rv === null ? '–' : r.rv}</td>
              <td>{r.failureModes.join(', ')}</td>
              <td className="links" onClick={(e) => e.stopPropagation()}>
                {isFailure(r) && (
                  <>
                    <button className="link" data-testid="open-route" title="This record's route, large, in 3D" onClick={() => openRecord(store, model, r.id)}>
                      route
                    </button>
                    {' · '}
                    <button
                      className="link"
                      data-testid="open-scene"
                      title={`Scene ${r.scene} in the Scene view, question ${r.questionIndex ?? '–'} selected, edges coloured for ${r.agent}`}
                      onClick={() => openInScene(store, r.scene, r.questionIndex, r.agent)}
                    >
                      scene
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
