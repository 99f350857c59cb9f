import type { RecordColumns } from '../../../core/scoring/paper/lite.ts';
import { FAILURE_MODES } from '../../../core/scoring/paper/types.ts';
import type { ExportSelection } from '../../../core/scoring/workerProtocol.ts';
import type { StudioState } from '../../../state/store.ts';

const OUTCOME_CODE: Record<string, number> = { TP: 0, FP: 1, TN: 2, FN: 3 };

/** The selected model's row columns, if any. */
export function selectedColumns(s: StudioState): RecordColumns | undefined {
  return s.scoring.reports.find(([m]) => m === s.scoring.selectedModel)?.[1].rows;
}

/** The question a row is about, from the project (rows do not repeat its text 100,000 times). */
export function questionText(s: StudioState, scene: string, questionIndex: number | null): string {
  return questionIndex === null ? '' : (s.document.project?.scenes.find((x) => x.id === scene)?.questions[questionIndex]?.text ?? '');
}

/** Indices of the selected model's records that pass the filters, in record order. */
export function filteredIndices(s: StudioState): number[] {
  const c = selectedColumns(s);
  if (!c) return [];
  const f = s.scoring.filter;
  const text = f.text.trim().toLowerCase();
  const agent = f.agent === 'all' ? -1 : c.agents.indexOf(f.agent);
  const failureBit = f.failure === 'all' ? 0 : 1 << FAILURE_MODES.indexOf(f.failure as (typeof FAILURE_MODES)[number]);
  const out: number[] = [];
  for (let i = 0; i < c.length; i++) {
    if (agent >= 0 && c.agent[i] !== agent) continue;
    if (f.outcome !== 'all' && (f.outcome === 'unmatched' ? c.status[i] === 0 : c.outcome[i] !== OUTCOME_CODE[f.outcome])) continue;
    if (failureBit && !(c.failureModes[i]! & failureBit)) continue;
    if (text) {
      const scene = c.scenes[c.scene[i]!]!;
      const own = c.text.slice(c.textAt[i]!, c.textAt[i + 1]!);
      if (!`${scene} ${questionText(s, scene, c.questionIndex[i]! < 0 ? null : c.questionIndex[i]!)} ${own}`.toLowerCase().includes(text)) continue;
    }
    out.push(i);
  }
  return out;
}

let cache: { key: unknown; filter: string; out: number[] } | null = null;
/** Memoised per (reports, selected model, filter) so moving through records stays cheap. */
export function cachedFilteredIndices(s: StudioState): number[] {
  const key = s.scoring.reports,
    filter = `${s.scoring.selectedModel}|${JSON.stringify(s.scoring.filter)}`;
  if (cache && cache.key === key && cache.filter === filter) return cache.out;
  cache = { key, filter, out: filteredIndices(s) };
  return cache.out;
}

/** Position of the selected record in the selected model's columns, or -1. */
export function selectedIndex(s: StudioState): number {
  const c = selectedColumns(s);
  return c && s.scoring.selectedRecord !== null ? c.ids.indexOf(s.scoring.selectedRecord) : -1;
}

/** Whether the record table is filtered (then exports hold only what it shows). */
export function filterActive(f: StudioState['scoring']['filter']): boolean {
  return f.agent !== 'all' || f.outcome !== 'all' || f.failure !== 'all' || f.text.trim() !== '';
}

/** What a filtered table shows, to export; undefined when nothing is filtered (everything is exported). */
export function exportSelection(s: StudioState): ExportSelection | undefined {
  const { filter, selectedModel } = s.scoring;
  if (!filterActive(filter) || !selectedModel) return undefined;
  return {
    model: selectedModel,
    indices: cachedFilteredIndices(s),
    filter: { agent: filter.agent, outcome: filter.outcome, failureMode: filter.failure, search: filter.text.trim() },
  };
}
