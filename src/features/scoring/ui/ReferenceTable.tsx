import { REFERENCE_COLUMNS, referenceRows } from '../../../core/scoring/compat/folders.ts';
import { csvTable } from '../../../formats/csv.ts';
import { useStudio } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';

const NUMERIC = new Set<string>(REFERENCE_COLUMNS.slice(1));
const encode = (text: string) => new TextEncoder().encode(text);

/**
 * The last run under the released scorer's conventions: the table `traversa score --compat
 * reference` prints (one row per model folder, then the pooled row), what it means, and the
 * files that command writes.
 */
export function ReferenceTable() {
  const view = useStudio((s) => s.scoring.compat);
  const scoringReferenceFiles = useCommand('score.referenceFiles');
  const scoringSaveFile = useCommand('score.saveFile');
  if (!view) return null;
  const { pooled, perModel } = view.summaries;
  const rows = referenceRows(view.summaries);
  const b = pooled.binary_classification;
  const fails = Object.entries(pooled.fail_reason_count);
  const pooledNote = perModel.length ? ' (pooled)' : '';
  return (
    <div className="score-table reference" data-testid="reference-table">
      <p className="hint">
        <strong>The released scorer’s conventions</strong> — the CapNav release’s Python scorer reproduced, quirks included (the same figures and files as{' '}
        <code>traversa score --compat reference</code>): it drops every reason, so RV is 0 unless a path item carries one; it guesses each task’s endpoints from
        the question text; weights, averaging and intervals do not apply. RV judge: {view.judge}.
      </p>
      <table className="table">
        <thead>
          <tr>
            {REFERENCE_COLUMNS.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r[0]} data-model={r[0]}>
              <th scope="row">{r[0]}</th>
              {r.slice(1).map((v, i) => (
                <td key={i} data-col={REFERENCE_COLUMNS[i + 1]} className={NUMERIC.has(REFERENCE_COLUMNS[i + 1]!) ? 'num' : ''}>
                  {v}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        {perModel.length
          ? `Each model row is what the released scorer prints when run on ${view.root}/<model>; “${rows.at(-1)![0]}” is what it prints for ${view.root} itself, every model’s records together.`
          : `What the released scorer prints for ${view.root}.`}{' '}
        Percentages. Confusion{pooledNote}: TP {b.TP} · FP {b.FP} · TN {b.TN} · FN {b.FN}.
        {fails.length > 0 && (
          <>
            {' '}
            Failed records{pooledNote}: {fails.map(([k, v]) => `${k} ${v}`).join(', ')}.
          </>
        )}
      </p>
      {view.unreadable.length > 0 && (
        <p className="warn" data-testid="reference-unreadable">
          Not valid JSON for the released scorer, each counted as one failed record (invalid_json):{' '}
          {view.unreadable.map((f) => `${f.path} (${f.message})`).join('; ')}
        </p>
      )}
      {view.notRead.length > 0 && (
        <p className="muted" data-testid="reference-not-read">
          The released scorer reads only *.json result files: {view.notRead.length} loaded file{view.notRead.length === 1 ? '' : 's'} not read (
          {view.notRead.slice(0, 3).join(', ')}
          {view.notRead.length > 3 ? ', …' : ''}); score them in paper mode.
        </p>
      )}
      {view.truthProblems.length > 0 && (
        <p className="warn">Ground truth the released scorer could not read: {view.truthProblems.map((p) => `${p.path}: ${p.message}`).join('; ')}</p>
      )}
      <div className="row">
        <span className="muted">Download:</span>
        {scoringReferenceFiles().map((f) => (
          <button
            key={f.name}
            className="small secondary"
            data-testid={`reference-file-${f.name}`}
            onClick={() => scoringSaveFile(f.name, encode(f.text), f.type)}
          >
            {f.name}
          </button>
        ))}
        <button
          className="small secondary"
          data-testid="reference-csv"
          onClick={() => scoringSaveFile('reference-scores.csv', encode(csvTable(REFERENCE_COLUMNS, rows)), 'text/csv')}
        >
          Table CSV
        </button>
      </div>
    </div>
  );
}
