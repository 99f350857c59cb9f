import type { LiteReport } from '../../../core/scoring/paper/lite.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';
import { dropPredictionFile } from '../state/scoreSession.ts';

const count = (n: number) => n.toLocaleString('en-US');
const list = (xs: string[]) => (xs.length < 3 ? xs.join(' and ') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/**
 * Tasks a model predicted more than once, said where the scores are read: how many, from which
 * files, the rule (every prediction is scored, as the released scorer does), and — when the
 * repeats come from separate files — the choice to score again without one of them.
 */
export function DuplicatesNotice() {
  const store = useStudioStore();
  const scoringRun = useCommand('score.run');
  const reports = useStudio((s) => s.scoring.reports);
  const files = useStudio((s) => s.scoring.files);
  const running = useStudio((s) => s.scoring.status.state === 'running');
  const dup = reports.filter(([, r]) => r.duplicates?.tasks > 0);
  if (!dup.length) return null;
  const without = (path: string) => {
    dropPredictionFile(store, path);
    void scoringRun();
  };
  return (
    <div className="notice warn-box" role="status" data-testid="score-duplicates">
      {dup.map(([model, r]: [string, LiteReport]) => {
        const d = r.duplicates;
        const droppable = [...new Set(d.sources.flatMap((s) => s.files))].filter((p) => files.some((f) => f.path === p) && files.length > 1);
        return (
          <div key={model} data-model={model}>
            <p>
              <strong>{model}</strong>: <strong data-testid="duplicate-tasks">{count(d.tasks)}</strong> task{d.tasks === 1 ? '' : 's'} (scene, question, agent){' '}
              {d.tasks === 1 ? 'is' : 'are'} predicted more than once
              {' — '}
              {d.sources.slice(0, 3).map((s, i) => (
                <span key={i} data-testid="duplicate-source">
                  {i ? '; ' : ''}
                  {count(s.tasks)} by {list(s.files)}
                </span>
              ))}
              {d.sources.length > 3 ? `; ${d.sources.length - 3} more groups` : ''}. Every prediction is scored, as the released scorer does: these tasks count{' '}
              {count(d.extra)} extra time{d.extra === 1 ? '' : 's'} among {model}'s {count(r.counts.records)} records.
            </p>
            {droppable.length > 0 && (
              <p className="row">
                Keep one:{' '}
                {droppable.map((p) => (
                  <button key={p} className="small secondary" disabled={running} onClick={() => without(p)} data-testid="score-without">
                    Score again without {p}
                  </button>
                ))}
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
