import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import type { QaAnswersState } from '../state/qaAnswersState.ts';
import { useCommand } from '../../../ui/commands.ts';
import { filesFromInput } from '../../../ui/pickedFiles.ts';
import { QaAnswersFomer } from './QaAnswersFomer.tsx';
import { QaAnswersItems } from './QaAnswersItems.tsx';
import { QaAnswersTable } from './QaAnswersTable.tsx';
import { MAX_RESAMPLES } from '../../../core/scoring/bootstrap.ts';
import { setQaAnswersSettings } from '../state/scoreSession.ts';

const LINE_FORMAT = '{"id": "qa_3", "answer": "B", "model": "gpt-4o"}';

/** Score a model's answers to the project's accepted QA items: load JSONL, see the capability table and every item, export. */
export function QaAnswersPanel() {
  const store = useStudioStore();
  const qaAnswersClear = useCommand('qaAnswers.clear');
  const qaAnswersExportJson = useCommand('qaAnswers.exportJson');
  const qaAnswersLoad = useCommand('qaAnswers.load');
  const q = useStudio((s) => s.qaAnswers);
  const accepted = useStudio((s) => s.document.project?.qa.items.reduce((n, i) => n + (i.status === 'accepted' ? 1 : 0), 0) ?? 0);
  const set = (patch: Partial<QaAnswersState['settings']>) => setQaAnswersSettings(store, patch);
  const loaded = q.files.length > 0;
  return (
    <section className="qa-answers" aria-labelledby="qa-answers-title" data-testid="qa-answers">
      <h2 id="qa-answers-title">QA answers</h2>
      <div className="score-controls">
        <div className="row">
          <label className="button small">
            Load answers…
            <input
              type="file"
              multiple
              hidden
              accept=".jsonl,.ndjson,.json"
              data-testid="qa-answers-input"
              onChange={(e) => {
                const l = e.currentTarget.files;
                if (l?.length) void qaAnswersLoad(filesFromInput(l));
                e.currentTarget.value = '';
              }}
            />
          </label>
          <label>
            Numeric τ{' '}
            <input
              type="number"
              min={0}
              step={0.01}
              placeholder="per item"
              aria-label="Numeric tolerance for every item"
              className="weight tau"
              title="Relative tolerance for numeric answers, the same for every item; empty: each item's own"
              data-testid="qa-answers-tau"
              value={q.settings.tau ?? ''}
              onChange={(e) => {
                const v = e.target.value;
                set({ tau: v === '' || !(Number(v) >= 0) ? null : Number(v) });
              }}
            />
          </label>
          <label>
            Averaging{' '}
            <select value={q.settings.averaging} aria-label="QA averaging" onChange={(e) => set({ averaging: e.target.value as 'micro' | 'macro' })}>
              <option value="macro">macro (mean of the four capabilities)</option>
              <option value="micro">micro (capability items pooled)</option>
            </select>
          </label>
          <label>
            Bootstrap{' '}
            <input
              type="number"
              min={0}
              max={MAX_RESAMPLES}
              step={100}
              value={q.settings.bootstrap}
              aria-label="QA bootstrap resamples"
              className="weight"
              onChange={(e) => set({ bootstrap: Math.min(MAX_RESAMPLES, Math.max(0, Math.floor(Number(e.target.value)) || 0)) })}
            />{' '}
            resamples
          </label>
          {q.report && (
            <button className="small secondary" data-testid="qa-answers-export" onClick={() => qaAnswersExportJson()}>
              Export JSON
            </button>
          )}
          {loaded && (
            <button className="small secondary" onClick={() => qaAnswersClear()}>
              Clear
            </button>
          )}
          <span className="muted" data-testid="qa-answers-status">
            {accepted} accepted item{accepted === 1 ? '' : 's'}
            {loaded && ` · ${q.predictions.length} answer${q.predictions.length === 1 ? '' : 's'} from ${q.files.join(', ')}`}
            {q.elapsedMs !== null && ` · scored in ${q.elapsedMs.toFixed(0)} ms`}
          </span>
        </div>
      </div>
      {accepted === 0 ? (
        <p className="hint" data-testid="qa-answers-empty">
          No accepted QA items in this project yet: write or import items in the QA view (5) and accept them. Only accepted items are scored.
        </p>
      ) : !loaded ? (
        <p className="hint" data-testid="qa-answers-empty">
          Load a model's answers to the {accepted} accepted item{accepted === 1 ? '' : 's'}: a JSONL file with one line per item, <code>{LINE_FORMAT}</code>.{' '}
          <code>model</code> defaults to the file's name; add <code>"judgeScore": 0–100</code> for free-text items a judge scored, and <code>"steps": […]</code>{' '}
          for the reasoning (FoMER). Several files are compared, each as its own model; each load adds files (Clear starts again).
        </p>
      ) : null}
      {q.readProblems.length > 0 && (
        <details className="warn" data-testid="qa-answers-problems" open={q.readProblems.some((p) => p.severity !== 'warning')}>
          <summary>
            {q.readProblems.length} problem{q.readProblems.length === 1 ? '' : 's'} reading the answers (bad lines are skipped; the rest is scored)
          </summary>
          <ul>
            {q.readProblems.map((p, i) => (
              <li key={i} data-file={p.file} data-location={p.location}>
                {p.file}
                {p.location ? ` ${p.location}` : ''}: {p.severity}: {p.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      {q.sameModel.length > 0 && (
        <div className="warn" data-testid="qa-answers-same-model">
          {q.sameModel.map((m) => (
            <p key={m.model}>
              Model “{m.model}” is named in {m.files.length} files: each is scored as its own model (
              {m.files.map((f) => `“${f.scoredAs}”, ${f.answers} answers`).join('; ')})
              {m.sharedItems > 0 ? `; ${m.sharedItems} item${m.sharedItems === 1 ? ' is' : 's are'} answered in more than one file` : ''}. Nothing is pooled.
            </p>
          ))}
        </div>
      )}
      <QaAnswersTable />
      {loaded && <QaAnswersFomer />}
      <QaAnswersItems />
    </section>
  );
}
