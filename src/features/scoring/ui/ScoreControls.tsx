import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';
import { filesFromInput } from '../../../ui/pickedFiles.ts';
import { JUDGE_KEY_STORAGE } from './judgeKey.ts';
import { MAX_RESAMPLES } from '../../../core/scoring/bootstrap.ts';
import { referenceJudge } from '../../../core/scoring/compat/run.ts';
import { setScoreSettings } from '../state/scoreSession.ts';

/** Load predictions, choose the judge and the weights, score, export. */
export function ScoreControls() {
  const store = useStudioStore();
  const scoringAddBaseline = useCommand('score.addBaseline');
  const scoringCancel = useCommand('score.cancel');
  const scoringLoadFiles = useCommand('score.loadFiles');
  const scoringRun = useCommand('score.run');
  const s = useStudio((st) => st.scoring);
  const set = (patch: Partial<typeof s.settings>) => setScoreSettings(store, patch);
  const running = s.status.state === 'running';
  const predictions = s.files.length;
  const reference = s.settings.conventions === 'reference';
  return (
    <div className="score-controls" data-testid="score-controls">
      <div className="row">
        <label className="button small">
          Load predictions…
          <input
            type="file"
            multiple
            hidden
            data-testid="load-predictions"
            ref={(el) => {
              if (el) el.setAttribute('webkitdirectory', '');
            }}
            onChange={(e) => {
              const l = e.currentTarget.files;
              if (l?.length) void scoringLoadFiles(filesFromInput(l));
              e.currentTarget.value = '';
            }}
          />
        </label>
        <label className="button small secondary">
          files…
          <input
            type="file"
            multiple
            hidden
            accept=".json,.jsonl,.txt"
            data-testid="load-prediction-files"
            onChange={(e) => {
              const l = e.currentTarget.files;
              if (l?.length) void scoringLoadFiles(filesFromInput(l));
              e.currentTarget.value = '';
            }}
          />
        </label>
        <button className="small secondary" onClick={() => scoringAddBaseline('random')} title="CapNav's lower bound: random walks on the graph">
          + Random-walk baseline
        </button>
        <button
          className="small secondary"
          onClick={() => scoringAddBaseline('oracle')}
          title="The ground truth's own answers: every metric should be (near) 100"
        >
          + Oracle
        </button>
        <span className="muted" data-testid="prediction-files">
          {predictions
            ? `${predictions} file${predictions === 1 ? '' : 's'} from ${/^(\d+ files|baselines)$/.test(s.source ?? '') ? s.files.map((f) => f.path).join(', ') : s.source}`
            : 'No predictions loaded: a CapNav results folder (results/<model>/<SCENE>/*.json), .txt answers or Traversa JSONL.'}
        </span>
      </div>
      <div className="row">
        <label title="Paper mode: the metrics as the paper defines them (Traversa's scorer). Released scorer: the CapNav release's Python scorer reproduced, quirks included, as score --compat reference">
          Conventions{' '}
          <select
            value={s.settings.conventions}
            aria-label="Scoring conventions"
            onChange={(e) => {
              const conventions = e.target.value as typeof s.settings.conventions;
              set(conventions === 'reference' && !referenceJudge(s.settings.judge) ? { conventions, judge: 'rule' } : { conventions });
            }}
          >
            <option value="paper">paper mode (Traversa)</option>
            <option value="reference">the released scorer’s (--compat reference)</option>
          </select>
        </label>
        <label>
          Judge (RV){' '}
          <select value={s.settings.judge} onChange={(e) => set({ judge: e.target.value as typeof s.settings.judge })} aria-label="Judge">
            <option value="rule">offline rule judge (obstacle categories; not an LLM)</option>
            <option
              value="http"
              disabled={reference}
              title={reference ? 'The released scorer drops every reason: an LLM judge has nothing to judge' : undefined}
            >
              HTTP judge (OpenAI-compatible)
            </option>
            <option value="imported" disabled={reference}>
              imported verdicts
            </option>
            <option value="none">none (RV not computed)</option>
          </select>
        </label>
        {s.settings.judge === 'http' && (
          <>
            <input
              placeholder="https://…/v1"
              value={s.settings.http.baseUrl}
              aria-label="Judge endpoint"
              onChange={(e) => set({ http: { ...s.settings.http, baseUrl: e.target.value } })}
            />
            <input
              placeholder="model"
              value={s.settings.http.model}
              aria-label="Judge model"
              size={12}
              onChange={(e) => set({ http: { ...s.settings.http, model: e.target.value } })}
            />
            <input
              type="password"
              placeholder="API key (kept in this browser)"
              aria-label="Judge API key"
              defaultValue={localStorage.getItem(JUDGE_KEY_STORAGE) ?? ''}
              onChange={(e) => localStorage.setItem(JUDGE_KEY_STORAGE, e.target.value)}
            />
            <label title="A request without a reply by then is aborted (and retried, up to 4 attempts)">
              timeout{' '}
              <input
                type="number"
                min={1}
                step={1}
                className="weight"
                aria-label="Judge timeout (seconds)"
                value={s.settings.http.timeoutMs / 1000}
                onChange={(e) => {
                  const sec = Number(e.target.value);
                  if (sec > 0) set({ http: { ...s.settings.http, timeoutMs: sec * 1000 } });
                }}
              />{' '}
              s
            </label>
          </>
        )}
        {s.settings.judge === 'imported' && (
          <label className="button small secondary">
            {s.settings.verdicts ? s.settings.verdicts.path : 'Verdict file…'}
            <input
              type="file"
              hidden
              accept=".json,.jsonl"
              onChange={async (e) => {
                const f = e.currentTarget.files?.[0];
                if (f) set({ verdicts: { path: f.name, text: await f.text() } });
              }}
            />
          </label>
        )}
        {!reference && (
          <>
            <label>
              λ F1/PV/RTA/RV{' '}
              {(['f1', 'pv', 'rta', 'rv'] as const).map((k) => (
                <input
                  key={k}
                  type="number"
                  step="0.05"
                  min={0}
                  max={1}
                  value={s.settings.weights[k]}
                  aria-label={`weight ${k}`}
                  className="weight"
                  onChange={(e) => set({ weights: { ...s.settings.weights, [k]: Number(e.target.value) } })}
                />
              ))}
            </label>
            <label>
              Averaging{' '}
              <select value={s.settings.averaging} aria-label="Averaging" onChange={(e) => set({ averaging: e.target.value as 'micro' | 'macro' })}>
                <option value="micro">micro (all records)</option>
                <option value="macro">macro (mean over agents)</option>
              </select>
            </label>
            <label>
              Bootstrap{' '}
              <input
                type="number"
                min={0}
                max={MAX_RESAMPLES}
                step={100}
                value={s.settings.bootstrap.resamples}
                aria-label="Bootstrap resamples"
                className="weight"
                onChange={(e) =>
                  set({ bootstrap: { ...s.settings.bootstrap, resamples: Math.min(MAX_RESAMPLES, Math.max(0, Math.floor(Number(e.target.value)) || 0)) } })
                }
              />{' '}
              resamples
            </label>
            {s.settings.bootstrap.resamples > 0 && (
              <>
                {/* The command line's --seed and --level: the same seed gives the same intervals there and here. */}
                <label>
                  seed{' '}
                  <input
                    type="number"
                    min={0}
                    step={1}
                    value={s.settings.bootstrap.seed}
                    aria-label="Bootstrap seed"
                    className="weight"
                    onChange={(e) => set({ bootstrap: { ...s.settings.bootstrap, seed: Math.max(0, Math.floor(Number(e.target.value)) || 0) } })}
                  />
                </label>
                <label>
                  <input
                    type="number"
                    min={50}
                    max={99.9}
                    step={1}
                    value={Math.round(s.settings.bootstrap.level * 1000) / 10}
                    aria-label="Bootstrap interval level (percent)"
                    className="weight"
                    onChange={(e) => {
                      const pct = Number(e.target.value);
                      if (pct > 0 && pct < 100) set({ bootstrap: { ...s.settings.bootstrap, level: pct / 100 } });
                    }}
                  />{' '}
                  % intervals
                </label>
              </>
            )}
          </>
        )}
        <button onClick={() => void scoringRun()} disabled={!predictions || running} data-testid="run-score">
          Score
        </button>
        {running && (
          <progress max={s.status.total ?? 1} value={s.status.done ?? 0} aria-label={`Scoring: ${s.status.phase ?? ''}`} data-testid="score-progress" />
        )}
        {running && <span className="muted">{s.status.phase}</span>}
        {running && s.settings.judge === 'http' && (
          <button
            className="small secondary"
            onClick={() => scoringCancel()}
            data-testid="cancel-score"
            title="Stop asking the judge: requests in flight are aborted; records not judged have an unknown RV, and RV and the composite are withheld"
          >
            Cancel
          </button>
        )}
        {s.status.state === 'error' && (
          <span className="error" role="alert">
            {s.status.message}
          </span>
        )}
        {s.status.state === 'done' && s.status.message && (
          <span className="warn" data-testid="score-note">
            {s.status.message}
          </span>
        )}
      </div>
    </div>
  );
}
