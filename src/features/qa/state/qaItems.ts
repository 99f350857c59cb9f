import type { QaItem, Viewpoint } from '../../../core/vqa/item.ts';
import { createWrittenItem } from '../../../core/vqa/items.ts';
import { capnavItemsForScene } from '../../../core/vqa/capnav.ts';
import { applyEdit } from '../../../state/edits.ts';
import { ITEM_EDITS, ITEM_LIST_EDITS } from './qaItemEdits.ts';
import type { QaFilter, StudioState, StudioStore } from '../../../state/store.ts';
import { setQa } from '../../../state/patch.ts';

/** Question-answer items in the studio: which is open, and the list's additions (the edits themselves: qaItemEdits.ts). */

const NO_ITEMS: QaItem[] = [];
/** The project's items (the same array until they change, so views can memoise on it). */
export const qaItems = (s: StudioState): QaItem[] => s.document.project?.qa.items ?? NO_ITEMS;
export const openItem = (s: StudioState): QaItem | undefined => qaItems(s).find((i) => i.id === s.qa.itemId);

export function addItems(store: StudioStore, added: QaItem[]): void {
  if (store.getState().document.project) applyEdit(store, ITEM_LIST_EDITS.add, { items: added });
}

export function deleteItem(store: StudioStore, id: string): void {
  applyEdit(store, ITEM_LIST_EDITS.remove, { itemId: id });
  store.setState((s) => ({ qa: { ...s.qa, itemId: s.qa.itemId === id ? null : s.qa.itemId } }));
}

/**
 * Open an item: its scene becomes the selected scene (sliced at the item's floor) and its review clock starts. In review mode
 * its first saved viewpoint is restored, so the reviewer sees what the question is about.
 */
export function selectItem(store: StudioStore, id: string | null): void {
  const item = qaItems(store.getState()).find((i) => i.id === id);
  store.setState((s) => ({
    qa: { ...s.qa, itemId: id, reviewStartedAt: Date.now(), rejecting: false, editingForReview: false, comment: '' },
    // Its floor is shown (the slice follows the nodes it references) until the user slices by hand.
    session: item ? { ...s.session, sceneId: item.sceneId, sliceFollowsItem: true } : s.session,
  }));
  const view = item?.anchors.viewpoints[0];
  if (view && store.getState().qa.mode === 'review') showViewpoint(store, view.camera);
}

/** Move the camera to a saved viewpoint (switching to its kind of camera). */
export function showViewpoint(store: StudioStore, camera: Viewpoint['camera']): void {
  store.setState((s) => ({
    session: { ...s.session, camera: camera.mode },
    ephemeral: { ...s.ephemeral, cameraRequest: { camera, n: (s.ephemeral.cameraRequest?.n ?? 0) + 1 } },
  }));
}

/** Write a new item for the selected scene (a draft by the current annotator) and open it. */
export function newItem(store: StudioStore): string | null {
  const s = store.getState();
  if (!s.document.project || !s.session.sceneId) return null;
  const item = createWrittenItem(qaItems(s), { sceneId: s.session.sceneId, author: s.session.annotator.trim(), createdAt: new Date().toISOString() });
  addItems(store, [item]);
  selectItem(store, item.id);
  return item.id;
}

/** Put the next numbered mark at a point of the scene (scan frame) on the open item. */
export function addMarkAt(store: StudioStore, at: { x: number; y: number; z: number }): void {
  const item = openItem(store.getState());
  if (item) applyEdit(store, ITEM_EDITS.placeMark, { itemId: item.id, at });
}

/** The selected scene's navigation questions as items to review (those without one yet), one undo step. Returns how many. */
export function addSceneQuestionItems(store: StudioStore): number {
  const s = store.getState();
  const project = s.document.project;
  if (!project || !s.session.sceneId) return 0;
  const items = capnavItemsForScene(project, s.session.sceneId, { createdAt: new Date().toISOString() });
  if (items.length) addItems(store, items);
  return items.length;
}

export function restoreDefaultTaxonomy(store: StudioStore): void {
  applyEdit(store, ITEM_LIST_EDITS.defaultTaxonomy, undefined);
}

/** Which items the list shows. */
export const setItemFilter = (store: StudioStore, filter: QaFilter): void => setQa(store, { filter });

/** Independent reviews each imported item needs (1–5; 2 or more measures agreement). */
export const setImportReviews = (store: StudioStore, n: number): void => setQa(store, { importReviews: Math.min(5, Math.max(1, Math.round(n || 1))) });
