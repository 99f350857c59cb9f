import { useEffect, useState } from 'react';
import { agentOrder } from '../../../core/agents.ts';
import type { BalanceKind } from '../../../core/research/augment.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';
import { notReady, unlabelledAgents } from '../state/readiness.ts';
import { setTraining, trainingOptions, type TrainingSession } from '../state/training.ts';
import { TrainingReport } from './TrainingReport.tsx';
import './training.css';

const BALANCE: { kind: BalanceKind; label: string; title: string }[] = [
  { kind: 'answers', label: 'answers', title: 'As many “yes” as “no” per scene and agent (the larger side is cut down to the smaller)' },
  { kind: 'obstacles', label: 'obstacle types', title: 'The “no” tasks take the obstacle types in turn, so a budget keeps the rare ones' },
];

/**
 * Training tasks from the open project's labels (issue 27 §1; CapNav §5's expansion): every ordered
 * pair of nodes per agent, or a seeded budget of them, with the labels' answer, a route or what
 * blocks it — the tasks `cli augment` writes — their distribution, a few examples, tasks.jsonl and
 * a split by scene to download. All user text (names, notes) is shown as text.
 */
export function TrainingView() {
  const store = useStudioStore();
  const generate = useCommand('training.generate');
  const cancel = useCommand('training.cancel');
  const showLabel = useCommand('view.label');
  const project = useStudio((s) => s.document.project);
  const t = useStudio((s) => s.training);
  const projectId = useStudio((s) => s.workspace.projectId);
  const why = notReady(project);
  const running = t.status.state === 'running';
  const all = project ? agentOrder(project.profiles) : [];
  const checked = trainingOptions(t, all);
  const chosen = t.agents === null ? all : all.filter((a) => t.agents!.includes(a));
  const noLabels = project && !why ? unlabelledAgents(project, chosen) : [];
  const toggleAgent = (agent: string, on: boolean) => {
    const next = on ? all.filter((a) => a === agent || chosen.includes(a)) : chosen.filter((a) => a !== agent);
    setTraining(store, { agents: next.length === all.length ? null : next });
  };
  const toggleBalance = (kind: BalanceKind, on: boolean) =>
    setTraining(store, { balance: BALANCE.map((b) => b.kind).filter((k) => (k === kind ? on : t.balance.includes(k))) });
  return (
    <section className="training" data-testid="training" aria-labelledby="training-title">
      <h2 id="training-title">Training tasks</h2>
      <p className="hint">
        Every ordered pair of rooms the graph connects, per agent, as a question with the answer the labels give (the scorer’s ground truth), a shortest
        feasible route or the segments and reasons that block it — CapNav’s expansion of its tasks, and what <code>cli augment</code> writes.
      </p>
      {why ? (
        <p className="empty" data-testid="training-not-ready">
          {why.text}{' '}
          {why.missing === 'labels' && (
            <button className="small" onClick={() => showLabel()}>
              Label now
            </button>
          )}
        </p>
      ) : (
        <>
          <fieldset className="training-form" disabled={running}>
            <div className="training-agents" role="group" aria-label="Agents">
              <span className="muted">Agents</span>
              {all.map((a) => (
                <label key={a}>
                  <input type="checkbox" checked={chosen.includes(a)} onChange={(e) => toggleAgent(a, e.target.checked)} /> {a}
                </label>
              ))}
            </div>
            <div className="training-row">
              <label title="At most this many tasks per scene and agent, sampled with the seed; empty for every pair">
                Budget per scene &amp; agent
                <input
                  type="number"
                  min={1}
                  placeholder="every pair"
                  aria-label="Budget per scene and agent"
                  value={t.budget}
                  onChange={(e) => setTraining(store, { budget: e.target.value })}
                />
              </label>
              <label title="The same seed gives the same sample">
                Seed
                <input type="number" aria-label="Seed" value={t.seed} onChange={(e) => setTraining(store, { seed: e.target.value })} />
              </label>
              <div className="training-balance" role="group" aria-label="Balance">
                <span className="muted">Balance</span>
                {BALANCE.map((b) => (
                  <label key={b.kind} title={b.title}>
                    <input type="checkbox" checked={t.balance.includes(b.kind)} onChange={(e) => toggleBalance(b.kind, e.target.checked)} /> {b.label}
                  </label>
                ))}
              </div>
            </div>
          </fieldset>
          <div className="review-actions">
            <button className="small" data-testid="training-generate" disabled={running || 'error' in checked} onClick={() => void generate()}>
              Generate
            </button>
            {running && (
              <button className="small danger" data-testid="training-cancel" onClick={() => cancel()}>
                Cancel
              </button>
            )}
            {'error' in checked && (
              <span className="bad" data-testid="training-invalid">
                {checked.error}
              </span>
            )}
          </div>
          {noLabels.length > 0 && (
            <p className="warn" data-testid="training-unlabelled-agents">
              No label for {noLabels.join(', ')} in any scene: {noLabels.length === 1 ? 'its' : 'their'} tasks will all be “no” (unlabelled).
            </p>
          )}
        </>
      )}
      <Status status={t.status} />
      {t.result && t.result.projectId === projectId && !running && <TrainingReport result={t.result} />}
    </section>
  );
}

function Status({ status }: { status: TrainingSession['status'] }) {
  if (status.state === 'running') return <Progress status={status} />;
  if (status.state === 'error')
    return (
      <p className="bad" role="alert" data-testid="training-error">
        {status.message}
      </p>
    );
  return status.message ? (
    <p className="muted" role="status" data-testid="training-message">
      {status.message}
    </p>
  ) : null;
}

function Progress({ status }: { status: Extract<TrainingSession['status'], { state: 'running' }> }) {
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="training-progress" role="status" data-testid="training-progress">
      <progress aria-label="Making tasks" value={status.done} max={status.total} />
      <span>
        {status.scene} · {status.done} of {status.total} scene × agent · {status.tasks.toLocaleString('en')} tasks ·{' '}
        {((now - status.startedAt) / 1000).toFixed(1)} s
      </span>
    </div>
  );
}
