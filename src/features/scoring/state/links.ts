import { qaItems, selectItem } from '../../qa/state/qaItems.ts';
import type { StudioStore } from '../../../state/store.ts';

/**
 * Where the Score view's links go. Each is session state only (which view, which record or item
 * is open), so following one changes nothing in the project.
 */

/** Open a model's record in the route viewer (large, framed on its route). */
export function openRecord(store: StudioStore, model: string, recordId: string): void {
  store.setState((s) => ({
    // Never from straight above: there two storeys fall on one another and a route ending upstairs
    // looks as if it ended on the room beneath. The orbit view keeps the floors apart.
    session: { ...s.session, view: 'score', ...(s.session.camera === 'top' ? { camera: 'orbit' as const } : {}) },
    scoring: { ...s.scoring, selectedModel: model, selectedRecord: recordId, viewer: { ...s.scoring.viewer, open: true, hop: null } },
  }));
}

export function closeViewer(store: StudioStore): void {
  store.setState((s) => ({ scoring: { ...s.scoring, viewer: { ...s.scoring.viewer, open: false, hop: null } } }));
}

/** The record's scene in the Scene view, its question selected (the question's route drawn) and the record's agent chosen. */
export function openInScene(store: StudioStore, sceneId: string, questionIndex: number | null, agent: string): void {
  store.setState((s) => ({
    session: { ...s.session, view: 'scene', sceneId, questionIndex, agent, selection: null },
    scoring: { ...s.scoring, viewer: { ...s.scoring.viewer, open: false, hop: null } },
    ephemeral: { ...s.ephemeral, pathPreview: null },
  }));
}

/** A QA item, open in the QA view (the list shows all items, so it is there whatever the filter was). */
export function openQaItem(store: StudioStore, itemId: string): boolean {
  if (!qaItems(store.getState()).some((i) => i.id === itemId)) return false;
  store.setState((s) => ({ session: { ...s.session, view: 'qa' }, qa: { ...s.qa, mode: 'edit', filter: 'all' } }));
  selectItem(store, itemId);
  return true;
}
