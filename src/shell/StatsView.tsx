import { useEffect, useMemo, useReducer } from 'react';
import type { Scene } from '../core/project.ts';
import { datasetStats, sceneStats, sceneStatsKnown, type DatasetStats } from '../core/stats.ts';
import { useStudio } from '../state/useStudio.ts';
import { ProfilesPanel } from '../features/scene/ui/ProfilesPanel.tsx';

/** Main-thread time given to counting at a time: a 1,000-scene project is counted in slices the page paints between. */
const SLICE_MS = 10;

/** Count the scenes' statistics (cached per scene) a slice at a time; how many are counted. */
function countSlice(scenes: readonly Scene[]): number {
  const t0 = performance.now();
  let n = 0;
  for (const scene of scenes) {
    if (!sceneStatsKnown(scene)) {
      if (performance.now() - t0 > SLICE_MS) break;
      sceneStats(scene);
    }
    n++;
  }
  return n;
}

/** How many of `scenes` have their statistics counted; the rest are counted in the background. */
function useScenesCounted(scenes: readonly Scene[] | undefined): number {
  const [, counted] = useReducer((x: number) => x + 1, 0);
  const n = scenes ? countSlice(scenes) : 0;
  const done = !scenes || n === scenes.length;
  useEffect(() => {
    if (done) return;
    const t = setTimeout(counted, 0);
    return () => clearTimeout(t);
  });
  return n;
}

const fmt = (x: number | null, digits = 2) => (x === null ? '–' : x.toFixed(digits));

/** Dataset statistics with CapNav Table 1's definitions. */
export function StatsView() {
  const project = useStudio((s) => s.document.project);
  const counted = useScenesCounted(project?.scenes);
  const stats = useMemo(() => (project && counted === project.scenes.length ? datasetStats(project) : null), [project, counted]);
  if (!project) return null;
  if (!stats)
    return (
      <section className="stats">
        <h2>Dataset statistics</h2>
        <p className="muted" data-testid="stats-counting">
          Counting… {counted} of {project.scenes.length} scenes
        </p>
      </section>
    );
  return (
    <section className="stats" aria-labelledby="stats-title">
      <h2 id="stats-title">Dataset statistics</h2>
      <p className="hint">
        Definitions as in CapNav Table 1: a task is a non-hallucinated question whose waypoints all resolve; it is feasible for an agent when a simple path from
        start to end uses only edges labelled traversable for it (a missing label counts as not traversable).
      </p>
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
          <tr key={key} data-stat={key}>
            <th scope="row">{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function AgentTable({ stats }: { stats: DatasetStats }) {
  return (
    <table className="table agents" data-testid="stats-agents">
      <thead>
        <tr>
          <th>Agent</th>
          <th>Labelled segments</th>
          <th>Edge traversable ratio</th>
          <th>Tasks</th>
          <th>Feasible tasks</th>
          <th>Feasible-task ratio</th>
        </tr>
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
