import type { Command } from '../../../state/commands.ts';
import type { CommandId } from '../../../state/commandIds.ts';
import { cachedFilteredIndices, selectedColumns } from './scoreSelectors.ts';
import type { StudioState, StudioStore } from '../../../state/store.ts';

/** Step through the filtered records (the preview follows). */
function stepRecord(store: StudioStore, delta: number) {
  const s = store.getState();
  const c = selectedColumns(s);
  const list = cachedFilteredIndices(s);
  if (!c || !list.length) return;
  const at = s.scoring.selectedRecord === null ? -1 : list.indexOf(c.ids.indexOf(s.scoring.selectedRecord));
  const next = list[Math.max(0, Math.min(list.length - 1, at < 0 ? 0 : at + delta))]!;
  store.setState((st) => ({ scoring: { ...st.scoring, selectedRecord: c.ids[next]!, viewer: { ...st.scoring.viewer, hop: null } } }));
}

/**
 * Step through the open record's route hop by hop: from the whole route to hop 1, 2, … and back
 * (the number of hops is the preview's, which follows the record shown).
 */
function stepHop(store: StudioStore, delta: number) {
  const s = store.getState();
  const n = s.ephemeral.pathPreview?.hops.length ?? 0;
  const at = s.scoring.viewer.hop;
  const next = delta > 0 ? (at === null ? 0 : Math.min(n - 1, at + 1)) : at === null || at === 0 ? null : at - 1;
  if (n === 0 || next === at) return;
  store.setState((st) => ({ scoring: { ...st.scoring, viewer: { ...st.scoring.viewer, hop: next } } }));
}

const scoring = (s: StudioState) => s.session.view === 'score' && s.scoring.reports.length > 0;
const viewing = (s: StudioState) => scoring(s) && s.scoring.viewer.open;
const hop = (id: CommandId, label: string, shortcut: string, delta: number): Command => ({
  id,
  label,
  shortcut,
  undoable: false,
  views: ['score'],
  enabled: viewing,
  run: (st) => stepHop(st, delta),
});

export const scoreCommands: Command[] = [
  {
    id: 'view.score',
    label: 'Score predictions',
    shortcut: '4',
    undoable: false,
    enabled: (s) => !!s.document.project,
    run: (st) => st.setState((s) => ({ session: { ...s.session, view: 'score' } })),
  },
  { id: 'score.next', label: 'Next scored record', shortcut: '.', undoable: false, enabled: scoring, run: (st) => stepRecord(st, 1) },
  { id: 'score.previous', label: 'Previous scored record', shortcut: ',', undoable: false, enabled: scoring, run: (st) => stepRecord(st, -1) },
  hop('score.hop.next', 'Next hop of the route', 'ArrowRight', 1),
  hop('score.hop.previous', 'Previous hop of the route (back to the whole route)', 'ArrowLeft', -1),
  hop('score.hop.nextBracket', 'Next hop of the route', ']', 1),
  hop('score.hop.previousBracket', 'Previous hop of the route', '[', -1),
  {
    id: 'score.viewer.close',
    label: 'Close the route viewer',
    shortcut: 'Escape',
    undoable: false,
    views: ['score'],
    enabled: viewing,
    run: (st) => st.setState((s) => ({ scoring: { ...s.scoring, viewer: { ...s.scoring.viewer, open: false, hop: null } } })),
  },
];
