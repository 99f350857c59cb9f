import { useMemo } from 'react';
import { datasetStats, type DatasetStats } from '../core/stats.ts';
import { useStudio } from '../state/useStudio.ts';
import { ProfilesPanel } from './ProfilesPanel.tsx';

const fmt = (x: number | null, digits = 2) => (x === null ? '–' : x.toFixed(digits));

/** Dataset statistics with CapNav Table 1's definitions. */
export function StatsView() {
  const project = useStudio((s) => s.document.project);
  const stats = useMemo(() => (project ? datasetStats(project) : null), [project]);
  if (!project || !stats) return null;
  return (
    <section className="stats" aria-labelledby="stats-title">
      <h2 id="stats-title">Dataset statistics</h2>
      <p className="hint">Definitions as in CapNav Table 1: a task is a non-hallucinated question whose waypoints all resolve; it is feasible for an agent when a simple path from start to end uses only edges labelled traversable for it (a missing label counts as not traversable).</p>
      <SummaryTable stats={stats} />
      <AgentTable stats={stats} />
      <ProfilesPanel />
    </section>
  );
}

function SummaryTable({ stats }: { stats: DatasetStats }) {
  const rows: [string, string, string | number][] = [
    ['scenes', 'Scenes', stats.scenes],
    ['nodes', 'Nodes', `${stats.nodes} (${fmt(stats.nodes_per_scene, 1)} per scene)`],
    ['edges', 'Edges', `${stats.edges} (${fmt(stats.edges_per_scene, 1)} per scene)`],
    ['questions', 'Questions', stats.questions],
    ['hallucinated_questions', 'Hallucinated questions', stats.hallucinated_questions],
    ['unresolved_questions', 'Questions with unresolved references', stats.unresolved_questions],
    ['labels', 'Segment labels', `${stats.labels.total} (${stats.labels.traversable} traversable, ${stats.labels.not_traversable} not)`],
  ];
  return (
    <table className="table summary" data-testid="stats-summary">
      <tbody>
        {rows.map(([key, label, value]) => (
          <tr key={key} data-stat={key}><th scope="row">{label}</th><td>{value}</td></tr>
        ))}
      </tbody>
    </table>
  );
}

function AgentTable({ stats }: { stats: DatasetStats }) {
  return (
    <table className="table agents" data-testid="stats-agents">
      <thead>
        <tr><th>Agent</th><th>Labelled segments</th><th>Edge traversable ratio</th><th>Tasks</th><th>Feasible tasks</th><th>Feasible-task ratio</th></tr>
      </thead>
      <tbody>
        {Object.entries(stats.agents).map(([agent, a]) => (
          <tr key={agent} data-agent={agent}>
            <th scope="row">{agent}</th>
            <td data-col="labels">{a.labels}</td>
            <td data-col="edge_traversable_ratio">{fmt(a.edge_traversable_ratio)}</td>
            <td data-col="tasks">{a.tasks}</td>
            <td data-col="feasible_tasks">{a.feasible_tasks}</td>
            <td data-col="feasible_task_ratio">{fmt(a.feasible_task_ratio)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
