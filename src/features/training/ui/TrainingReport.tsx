import { useMemo } from 'react';
import { exampleTasks, taskDistribution } from '../../../core/research/taskDistribution.ts';
import { useStudio } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';
import { augmentCommandLine, isCurrent, type TrainingResult } from '../state/training.ts';
import { TrainingExamples } from './TrainingExamples.tsx';
import { TrainingSplit } from './TrainingSplit.tsx';

const n = (x: number) => x.toLocaleString('en');
const pct = (part: number, whole: number) => (whole ? `${Math.round((100 * part) / whole)} %` : '–');

/** A run's tasks: how many, how they spread (per agent: answers and obstacles; per scene), examples, and the downloads. */
export function TrainingReport({ result }: { result: TrainingResult }) {
  const downloadTasks = useCommand('training.downloadTasks');
  const current = useStudio((s) => isCurrent(result, s.document.project));
  const preparing = useStudio((s) => s.training.preparing);
  const d = useMemo(() => taskDistribution(result.tasks, result.agents), [result]);
  const examples = useMemo(() => exampleTasks(result.tasks), [result]);
  const s = result.summary;
  const none = d.agents.filter((a) => a.tasks === 0).map((a) => a.agent);
  return (
    <div className="training-report" data-testid="training-report">
      <p data-testid="training-summary" data-tasks={s.tasks}>
        <strong>
          {n(s.tasks)} task{s.tasks === 1 ? '' : 's'}
        </strong>{' '}
        from {s.scenes} scene{s.scenes === 1 ? '' : 's'} for {result.agents.length} agent{result.agents.length === 1 ? '' : 's'}, made in{' '}
        {(result.ms / 1000).toFixed(1)} s.
        {s.unconnectedPairs > 0 && ` ${n(s.unconnectedPairs)} agent × pair cases left out: the graph does not connect the two nodes at all.`}
      </p>
      {!current && (
        <p className="warn" role="status" data-testid="training-stale">
          The project has changed since these tasks were made: generate again for the labels and graph as they are now.
        </p>
      )}
      <p className="muted">
        The same file from the command line: <code data-testid="training-cli">{augmentCommandLine(result.options)}</code>
      </p>
      <div className="review-actions">
        <button className="small" data-testid="training-download-tasks" disabled={!s.tasks || preparing !== null} onClick={() => void downloadTasks()}>
          {preparing === 'tasks' ? 'Preparing tasks.jsonl…' : 'Download tasks.jsonl'}
        </button>
      </div>
      {none.length > 0 && (
        <p className="warn" data-testid="training-none">
          No task for {none.join(', ')}
          {result.options.balance?.answers
            ? `: balancing the answers keeps as many “yes” as “no” per scene and agent, and every pair the graph connects has the same answer for ${none.length === 1 ? 'it' : 'each of them'}.`
            : '.'}
        </p>
      )}
      <table className="table training-agents-table" data-testid="training-by-agent">
        <caption>By agent: answers, and the obstacles that block the “no” tasks (a task counts once per obstacle type)</caption>
        <thead>
          <tr>
            <th>Agent</th>
            <th>Tasks</th>
            <th>Yes</th>
            <th>No</th>
            <th>Yes share</th>
            {d.obstacles.map((o) => (
              <th key={o}>{o}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {d.agents.map((a) => (
            <tr key={a.agent} data-agent={a.agent}>
              <th scope="row">{a.agent}</th>
              <td data-col="tasks">{a.tasks}</td>
              <td data-col="yes">{a.yes}</td>
              <td data-col="no">{a.no}</td>
              <td>{pct(a.yes, a.tasks)}</td>
              {d.obstacles.map((o) => (
                <td key={o} data-col={`obstacle:${o}`}>
                  {a.obstacles[o] ?? 0}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <details open={d.scenes.length <= 12}>
        <summary>By scene ({d.scenes.length})</summary>
        <table className="table" data-testid="training-by-scene">
          <thead>
            <tr>
              <th>Scene</th>
              <th>Tasks</th>
              <th>Yes</th>
              <th>No</th>
            </tr>
          </thead>
          <tbody>
            {d.scenes.map((sc) => (
              <tr key={sc.scene} data-scene-row={sc.scene}>
                <th scope="row">{sc.scene}</th>
                <td data-col="tasks">{sc.tasks}</td>
                <td data-col="yes">{sc.yes}</td>
                <td data-col="no">{sc.no}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {examples.length > 0 && <TrainingExamples result={result} examples={examples} />}
      {s.tasks > 0 && <TrainingSplit result={result} />}
    </div>
  );
}
