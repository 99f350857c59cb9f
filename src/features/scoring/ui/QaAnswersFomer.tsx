import { TRAIL_SUBSETS, type TrailSubsets } from '../../../core/scoring/vqa/trails.ts';
import { fomerCriterionRows, fomerSubsetRows, fomerSummary } from '../../../core/scoring/vqa/trailsTable.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';
import { filesFromInput } from '../../../ui/pickedFiles.ts';
import { JUDGE_KEY_STORAGE } from './judgeKey.ts';
import { fmtCell } from './qaAnswersFormat.ts';
import { setJudgeHttp, setQaAnswersSettings } from '../state/scoreSession.ts';

const SUBSET_LABELS: Record<TrailSubsets, string> = { source: 'item source', scene: 'scene', capability: 'capability', task: 'task type' };

/**
 * FoMER's reasoning scores of the loaded answers: the judge of their reasoning steps (imported
 * scores or the HTTP judge), then RA and FA per subset with their n, the macro line, and RA per
 * criterion — the rows `score-qa` prints, from the same core functions.
 */
export function QaAnswersFomer() {
  const store = useStudioStore();
  const qaAnswersCancelReasoning = useCommand('qaAnswers.cancelReasoning');
  const qaAnswersLoadReasoningScores = useCommand('qaAnswers.loadReasoningScores');
  const qaAnswersSetReasoningJudge = useCommand('qaAnswers.setReasoningJudge');
  const r = useStudio((s) => s.qaAnswers.reasoning);
  const subsets = useStudio((s) => s.qaAnswers.settings.subsets);
  const fomer = useStudio((s) => s.qaAnswers.fomer);
  const http = useStudio((s) => s.scoring.settings.http);
  const withSteps = useStudio((s) => s.qaAnswers.predictions.reduce((n, p) => n + (p.steps?.length ? 1 : 0), 0));
  const setHttp = (patch: Partial<typeof http>) => setJudgeHttp(store, patch);
  const setSubsets = (v: TrailSubsets) => setQaAnswersSettings(store, { subsets: v });
  return (
    <div className="qa-fomer" data-testid="qa-fomer">
      <h3>Reasoning (FoMER RA / FA)</h3>
      <div className="score-controls">
        <div className="row">
          <label>
            Reasoning judge{' '}
            <select
              value={r.judge}
              aria-label="Reasoning judge"
              data-testid="qa-fomer-judge"
              onChange={(e) => qaAnswersSetReasoningJudge(e.target.value as typeof r.judge)}
            >
              <option value="none">none (RA not computed)</option>
              <option value="imported">imported scores</option>
              <option value="http">HTTP judge (OpenAI-compatible)</option>
            </select>
          </label>
          {r.judge === 'imported' && (
            <label className="button small secondary">
              {r.scores ? r.scores.file : 'Load reasoning scores…'}
              <input
                type="file"
                hidden
                accept=".json,.jsonl"
                data-testid="qa-fomer-scores-input"
                onChange={(e) => {
                  const l = e.currentTarget.files;
                  if (l?.length) void qaAnswersLoadReasoningScores(filesFromInput(l));
                  e.currentTarget.value = '';
                }}
              />
            </label>
          )}
          {r.judge === 'http' && (
            <>
              <input
                placeholder="https://…/v1"
                value={http.baseUrl}
                aria-label="Reasoning judge endpoint"
                onChange={(e) => setHttp({ baseUrl: e.target.value })}
              />
              <input placeholder="model" value={http.model} aria-label="Reasoning judge model" size={12} onChange={(e) => setHttp({ model: e.target.value })} />
              <input
                type="password"
                placeholder="API key (kept in this browser)"
                aria-label="Reasoning judge API key"
                defaultValue={localStorage.getItem(JUDGE_KEY_STORAGE) ?? ''}
                onChange={(e) => localStorage.setItem(JUDGE_KEY_STORAGE, e.target.value)}
              />
              {r.judging ? (
                <button className="small secondary" onClick={() => qaAnswersCancelReasoning()}>
                  Cancel
                </button>
              ) : (
                <button className="small" onClick={() => qaAnswersSetReasoningJudge('http')}>
                  Judge
                </button>
              )}
            </>
          )}
          <label>
            Subsets{' '}
            <select value={subsets} aria-label="FoMER subsets" onChange={(e) => setSubsets(e.target.value as TrailSubsets)}>
              {TRAIL_SUBSETS.map((s) => (
                <option key={s} value={s}>
                  {SUBSET_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <span className="muted" data-testid="qa-fomer-status">
            {withSteps} answer{withSteps === 1 ? '' : 's'} with reasoning steps
            {r.judging && ` · judging ${r.judging.done}/${r.judging.total}`}
          </span>
        </div>
      </div>
      {r.error && (
        <p className="warn" data-testid="qa-fomer-error">
          {r.error}
        </p>
      )}
      {r.problems.length > 0 && (
        <details className="warn" data-testid="qa-fomer-problems" open={r.problems.some((p) => p.severity !== 'warning')}>
          <summary>
            {r.problems.length} problem{r.problems.length === 1 ? '' : 's'} reading the reasoning scores
          </summary>
          <ul>
            {r.problems.map((p, i) => (
              <li key={i}>
                {p.file}
                {p.location ? ` ${p.location}` : ''}: {p.severity}: {p.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      {r.judge === 'none' && (
        <p className="hint">
          Answers may carry their reasoning as <code>"steps": ["…", "…"]</code>; a judge scores them against each item's trail on FoMER's ten criteria (1–10).
          Load the judge's scores (<code>{'{"verdicts": [{"id", "model", "criteria": {…}, "final"}]}'}</code>) or ask the HTTP judge.
        </p>
      )}
      {fomer && <FomerTables />}
    </div>
  );
}

function FomerTables() {
  const f = useStudio((s) => s.qaAnswers.fomer)!;
  const subsetRows = fomerSubsetRows(f);
  const criterionRows = fomerCriterionRows(f);
  return (
    <>
      <div className="score-table" style={{ overflowX: 'auto' }}>
        <table className="table" data-testid="qa-fomer-subsets">
          <thead>
            <tr>
              <th>Model</th>
              <th>Subset</th>
              <th title="reasoning accuracy, percent">RA</th>
              <th title="items in RA">n</th>
              <th title="final-answer accuracy, percent">FA</th>
              <th title="items in FA">n</th>
            </tr>
          </thead>
          <tbody>
            {subsetRows.map((row) => (
              <tr key={`${row.model}|${row.subset}`} data-model={row.model} data-subset={row.subset} className={row.overall ? 'total' : ''}>
                <th scope="row">{row.model}</th>
                <td>{row.overall ? <strong>{row.subset}</strong> : row.subset}</td>
                <td data-col="ra">{fmtCell(row.ra)}</td>
                <td data-col="n-ra">{row.nRa}</td>
                <td data-col="fa">{fmtCell(row.fa)}</td>
                <td data-col="n-fa">{row.nFa}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="table" data-testid="qa-fomer-criteria">
          <thead>
            <tr>
              <th>Criterion</th>
              {f.models.map((m) => (
                <th key={m.model}>{m.model} (n)</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {criterionRows.map((row) => (
              <tr key={row.criterion} data-criterion={row.criterion}>
                <th scope="row">{row.criterion}</th>
                {row.cells.map((c, i) => (
                  <td key={f.models[i]!.model} data-model={f.models[i]!.model}>
                    {fmtCell(c)} ({c.n})
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {fomerSummary(f)
        .split('\n')
        .map((line) => (
          <p key={line} className="hint">
            {line}
          </p>
        ))}
      <ul className="hint" data-testid="qa-fomer-notes">
        {f.models.map((m) => {
          const c = m.counts;
          const notJudged = m.items.filter(
            (i) => i.ra === null && i.note && c.withSteps > 0 && !/^(no answer|no reasoning steps|the item has no reasoning trail)/.test(i.note),
          );
          return (
            <li key={m.model} data-model={m.model}>
              {m.model}: {c.judged} of {c.items} items in RA
              {c.noAnswer > 0 && ` · ${c.noAnswer} without an answer (FA 0)`}
              {c.noSteps > 0 && ` · ${c.noSteps} answered without steps`}
              {c.noTrail > 0 && ` · ${c.noTrail} item${c.noTrail === 1 ? '' : 's'} without a trail`}
              {notJudged.length > 0 &&
                ` · not judged: ${notJudged
                  .slice(0, 5)
                  .map((i) => `${i.id} (${i.note})`)
                  .join(', ')}${notJudged.length > 5 ? `, … (${notJudged.length})` : ''}`}
            </li>
          );
        })}
      </ul>
    </>
  );
}
