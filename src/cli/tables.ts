import type { DatasetStats } from '../core/stats.ts';
import type { PlannedQuestion } from '../core/plan.ts';

/** Render rows as a fixed-width text table; numbers right-aligned. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[], isNum: boolean[]) =>
    r
      .map((c, i) => (isNum[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || /^[\d.–-]+$/.test(String(r[i]))));
  return [line(header, numeric), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map((r) => line(r, numeric))].join('\n');
}

const pct = (x: number | null) => (x === null ? '–' : x.toFixed(2));

export function formatStats(s: DatasetStats): string {
  const summary = table(
    ['', 'count'],
    [
      ['scenes', s.scenes],
      ['nodes', s.nodes],
      ['edges', s.edges],
      ['nodes per scene', s.nodes_per_scene === null ? '–' : s.nodes_per_scene.toFixed(1)],
      ['edges per scene', s.edges_per_scene === null ? '–' : s.edges_per_scene.toFixed(1)],
      ['questions', s.questions],
      ['hallucinated questions', s.hallucinated_questions],
      ['unresolved questions', s.unresolved_questions],
      ['labels', s.labels.total],
      ['traversable', s.labels.traversable],
      ['not traversable', s.labels.not_traversable],
    ],
  );
  const agents = table(
    ['agent', 'labels', 'edge trav. ratio', 'tasks', 'feasible', 'feasible-task ratio'],
    Object.entries(s.agents).map(([a, v]) => [a, v.labels, pct(v.edge_traversable_ratio), v.tasks, v.feasible_tasks, pct(v.feasible_task_ratio)]),
  );
  return `${summary}\n\n${agents}\n`;
}

export function formatPlan(scenes: Record<string, { questions: PlannedQuestion[] }>): string {
  const lines: string[] = [];
  for (const [scene, { questions }] of Object.entries(scenes)) {
    lines.push(`${scene}`);
    for (const q of questions) {
      const what =
        'edges' in q
          ? `${q.edges.length} edge${q.edges.length === 1 ? '' : 's'}: ${q.edges.join(', ')}`
          : 'hallucinated' in q
            ? 'hallucinated (excluded)'
            : `unresolved: ${q.unresolved.map((r) => JSON.stringify(r)).join(', ')}`;
      lines.push(`  #${q.index}  ${what}`);
    }
  }
  return lines.join('\n') + '\n';
}
