import type { Command } from './commands.ts';
import { cachedFilteredIndices, selectedColumns } from './scoreSelectors.ts';
import type { StudioState, StudioStore } from './store.ts';

/** Step through the filtered records (the preview follows). */
function stepRecord(store: StudioStore, delta: number) {
  const s = store.getState();
  const c = selectedColumns(s);
  const list = cachedFilteredIndices(s);
  if (!c || !list.length) return;
  const at = s.scoring.selectedRecord === null ? -1 : list.indexOf(c.ids.indexOf(s.scoring.selectedRecord));
  const next = list[Math.max(0, Math.min(list.length - 1, at < 0 ? 0 : at + delta))]!;
  store.setState((st) => ({ scoring: { ...st.scoring, selectedRecord: c.ids[next]! } }));
}

const scoring = (s: StudioState) => s.session.view === 'score' && s.scoring.reports.length > 0;

export const scoreCommands: Command[] = [
  { id: 'view.score', label: 'Score predictions', shortcut: '4', undoable: false, enabled: (s) => !!s.document.project, run: (st) => st.setState((s) => ({ session: { ...s.session, view: 'score' } })) },
  { id: 'score.next', label: 'Next scored record', shortcut: '.', undoable: false, enabled: scoring, run: (st) => stepRecord(st, 1) },
  { id: 'score.previous', label: 'Previous scored record', shortcut: ',', undoable: false, enabled: scoring, run: (st) => stepRecord(st, -1) },
];
