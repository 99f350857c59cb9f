import type { ScoredRecord } from '../core/scoring/paper/types.ts';
import type { Command } from './commands.ts';
import type { StudioState, StudioStore } from './store.ts';

/** The selected model's records after the filters (scored, then unmatched and excluded). */
export function filteredRecords(s: StudioState): ScoredRecord[] {
  const r = s.scoring.reports.find(([m]) => m === s.scoring.selectedModel)?.[1];
  if (!r) return [];
  const f = s.scoring.filter;
  const text = f.text.trim().toLowerCase();
  return [...r.records, ...r.unmatched, ...r.excluded].filter((x) =>
    (f.agent === 'all' || x.agent === f.agent)
    && (f.outcome === 'all' || (f.outcome === 'unmatched' ? x.status !== 'scored' : x.outcome === f.outcome))
    && (f.failure === 'all' || x.failureModes.includes(f.failure as ScoredRecord['failureModes'][number]))
    && (!text || `${x.scene} ${x.question} ${x.reason} ${x.pathTokens.join(' ')}`.toLowerCase().includes(text)));
}

let cache: { key: unknown; filter: unknown; out: ScoredRecord[] } | null = null;
/** Memoised per (reports, selected model, filter) so moving through records stays cheap. */
export function cachedFilteredRecords(s: StudioState): ScoredRecord[] {
  const key = s.scoring.reports, filter = `${s.scoring.selectedModel}|${JSON.stringify(s.scoring.filter)}`;
  if (cache && cache.key === key && cache.filter === filter) return cache.out;
  cache = { key, filter, out: filteredRecords(s) };
  return cache.out;
}

/** Step through the filtered records (the preview follows). */
function stepRecord(store: StudioStore, delta: number) {
  const s = store.getState();
  const list = cachedFilteredRecords(s);
  if (!list.length) return;
  const at = list.findIndex((r) => r.id === s.scoring.selectedRecord);
  const next = list[Math.max(0, Math.min(list.length - 1, at < 0 ? 0 : at + delta))]!;
  store.setState((st) => ({ scoring: { ...st.scoring, selectedRecord: next.id } }));
}

const scoring = (s: StudioState) => s.session.view === 'score' && s.scoring.reports.length > 0;

export const scoreCommands: Command[] = [
  { id: 'view.score', label: 'Score predictions', shortcut: '4', undoable: false, enabled: (s) => !!s.document.project, run: (st) => st.setState((s) => ({ session: { ...s.session, view: 'score' } })) },
  { id: 'score.next', label: 'Next scored record', shortcut: '.', undoable: false, enabled: scoring, run: (st) => stepRecord(st, 1) },
  { id: 'score.previous', label: 'Previous scored record', shortcut: ',', undoable: false, enabled: scoring, run: (st) => stepRecord(st, -1) },
];
