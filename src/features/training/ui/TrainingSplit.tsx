import { useMemo } from 'react';
import { planSplits, SPLITS } from '../../../core/research/split.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';
import { setTraining, splitCommandLine, splitSettings, type TrainingResult } from '../state/training.ts';

/** The tasks split by scene into train/val/test (core/research/split.ts, as `cli split`): the shares, the plan, and the zip. */
export function TrainingSplit({ result }: { result: TrainingResult }) {
  const store = useStudioStore();
  const downloadSplit = useCommand('training.downloadSplit');
  const split = useStudio((s) => s.training.split);
  const preparing = useStudio((s) => s.training.preparing);
  const settings = useMemo(() => splitSettings(split), [split]);
  const plan = useMemo(() => ('error' in settings ? null : planSplits(result.tasks, settings.ratios, settings.seed)), [result, settings]);
  const wanted = 'error' in settings ? 0 : SPLITS.filter((k) => settings.ratios[k] > 0).length;
  const empty = plan ? SPLITS.filter((k) => plan.splits[k].scenes.length === 0 && !('error' in settings) && settings.ratios[k] > 0) : [];
  return (
    <section className="training-split" data-testid="training-split" aria-labelledby="training-split-title">
      <h3 id="training-split-title">Split by scene</h3>
      <p className="hint">
        A scene’s tasks go to one split only (no scene leaks from training into validation or test); each split’s mix of agents, answers and first obstacles is
        kept near the whole’s.
      </p>
      <div className="training-row">
        {SPLITS.map((k) => (
          <label key={k}>
            {k}
            <input
              type="number"
              min={0}
              step={0.05}
              aria-label={`Share of ${k}`}
              value={split[k]}
              onChange={(e) => setTraining(store, { split: { ...split, [k]: e.target.value } })}
            />
          </label>
        ))}
        <label>
          Seed
          <input type="number" aria-label="Split seed" value={split.seed} onChange={(e) => setTraining(store, { split: { ...split, seed: e.target.value } })} />
        </label>
      </div>
      {'error' in settings ? (
        <p className="bad" data-testid="training-split-invalid">
          {settings.error}
        </p>
      ) : (
        plan && (
          <>
            <table className="table" data-testid="training-split-plan">
              <thead>
                <tr>
                  <th>Split</th>
                  <th>Scenes</th>
                  <th>Tasks</th>
                </tr>
              </thead>
              <tbody>
                {SPLITS.map((k) => (
                  <tr key={k} data-split={k}>
                    <th scope="row">{k}</th>
                    <td title={plan.splits[k].scenes.join(', ')}>{plan.splits[k].scenes.length}</td>
                    <td data-col="tasks">{plan.splits[k].tasks}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {empty.length > 0 && (
              <p className="warn" data-testid="training-split-empty">
                {result.summary.scenes} scene{result.summary.scenes === 1 ? '' : 's'} for {wanted} splits: {empty.join(' and ')}{' '}
                {empty.length === 1 ? 'gets' : 'get'} no scene. A split by scene needs at least as many scenes as splits.
              </p>
            )}
            <p className="muted">
              From the command line: <code>{splitCommandLine(settings.ratios, settings.seed)}</code>
            </p>
          </>
        )
      )}
      <button className="small" data-testid="training-download-split" disabled={'error' in settings || preparing !== null} onClick={() => void downloadSplit()}>
        {preparing === 'split' ? 'Preparing the split…' : 'Download the split (zip: train, val, test and manifest)'}
      </button>
    </section>
  );
}
