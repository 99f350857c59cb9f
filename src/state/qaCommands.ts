import type { QaItem, Viewpoint } from '../core/vqa/item.ts';
import { createWrittenItem } from '../core/vqa/items.ts';
import { capnavItemsForScene } from '../core/vqa/capnav.ts';
import { DEFAULT_TAXONOMY } from '../core/vqa/taxonomy.ts';
import type { Project } from '../core/project.ts';
import { commitDocument } from './history.ts';
import type { StudioState, StudioStore } from './store.ts';

/** Question-answer items: each edit is one undo step on the document. */

const NO_ITEMS: QaItem[] = [];
/** The project's items (the same array until they change, so views can memoise on it). */
export const qaItems = (s: StudioState): QaItem[] => s.document.project?.qa.items ?? NO_ITEMS;
export const openItem = (s: StudioState): QaItem | undefined => qaItems(s).find((i) => i.id === s.qa.itemId);

function withItems(p: Project, fn: (items: QaItem[]) => QaItem[]): Project {
  const items = fn(p.qa.items);
  return items === p.qa.items ? p : { ...p, qa: { ...p.qa, items } };
}

export function updateItem(store: StudioStore, id: string, label: string, fn: (item: QaItem) => QaItem): void {
  commitDocument(store, label, (p) => withItems(p, (items) => {
    let changed = false;
    const next = items.map((i) => { if (i.id !== id) return i; const n = fn(i); changed ||= n !== i; return n; });
    return changed ? next : items;
  }));
}

export function addItems(store: StudioStore, label: string, added: QaItem[]): void {
  if (!store.getState().document.project) return;
  commitDocument(store, label, (p) => withItems(p, (items) => [...items, ...added]));
}

export function deleteItem(store: StudioStore, id: string): void {
  commitDocument(store, 'Delete item', (p) => withItems(p, (items) => items.filter((i) => i.id !== id)));
  store.setState((s) => ({ qa: { ...s.qa, itemId: s.qa.itemId === id ? null : s.qa.itemId } }));
}

/**
 * Open an item: its scene becomes the selected scene and its review clock starts. In review mode
 * its first saved viewpoint is restored, so the reviewer sees what the question is about.
 */
export function selectItem(store: StudioStore, id: string | null): void {
  const item = qaItems(store.getState()).find((i) => i.id === id);
  store.setState((s) => ({
    qa: { ...s.qa, itemId: id, reviewStartedAt: Date.now(), rejecting: false, editingForReview: false, comment: '' },
    session: item ? { ...s.session, sceneId: item.sceneId } : s.session,
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
  addItems(store, 'New item', [item]);
  selectItem(store, item.id);
  return item.id;
}

/** Put the next numbered mark at a point of the scene (scan frame) on the open item. */
export function addMarkAt(store: StudioStore, at: { x: number; y: number; z: number }): void {
  const item = openItem(store.getState());
  if (!item) return;
  updateItem(store, item.id, 'Place mark', (i) => {
    const number = Math.max(0, ...i.anchors.marks.map((m) => m.number)) + 1;
    return { ...i, anchors: { ...i.anchors, marks: [...i.anchors.marks, { id: `mark_${number}`, number, position: at, label: '' }] } };
  });
}

/** The selected scene's navigation questions as items to review (those without one yet), one undo step. Returns how many. */
export function addSceneQuestionItems(store: StudioStore): number {
  const s = store.getState();
  const project = s.document.project;
  if (!project || !s.session.sceneId) return 0;
  const items = capnavItemsForScene(project, s.session.sceneId, { createdAt: new Date().toISOString() });
  if (items.length) addItems(store, `Review ${items.length} navigation question${items.length === 1 ? '' : 's'}`, items);
  return items.length;
}

export function restoreDefaultTaxonomy(store: StudioStore): void {
  commitDocument(store, 'Restore the default taxonomy', (p) => (p.qa.taxonomy === DEFAULT_TAXONOMY ? p : { ...p, qa: { ...p.qa, taxonomy: DEFAULT_TAXONOMY } }));
}
