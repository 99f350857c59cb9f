import type { Project, Scene } from '../core/project.ts';
import type { QaItem } from '../core/vqa/item.ts';
import { setEphemeral } from './patch.ts';
import { diffProjects } from '../core/records/records.ts';
import { databaseOf, leadWorkIn } from '../core/sync/validateDoc.ts';
import { commitDocument } from './history.ts';
import type { StudioStore } from './store.ts';

/**
 * The document changes: each a named edit with a fixed label and typed arguments, applied through
 * `applyEdit` — one undo step per use, the label shown in the history. Nothing else changes the
 * document (an ESLint rule keeps `commitDocument` to this file), so undo, autosave and sync see
 * every change under a name. Loading and importing replace the document outside history
 * (`replaceDocument`), and a drag previews then commits one step (history.ts gestures).
 */
export interface Edit<A> {
  readonly id: string;
  readonly label: string;
  readonly apply: (project: Project, args: A) => Project;
}

export function defineEdit<A>(id: string, label: string, apply: (project: Project, args: A) => Project): Edit<A> {
  return { id, label, apply };
}

/** Apply an edit: one undo step under its label; nothing happens (and no step) when it changes nothing. Returns whether it changed the document. */
export function applyEdit<A>(store: StudioStore, edit: Edit<A>, args: A, label = edit.label): boolean {
  const before = store.getState().document.project;
  // Only an annotator's edit in a team project is looked at first (and then applied once, not twice).
  const team = store.getState().team;
  const checked = before && team.role === 'annotator' && team.state !== 'off' ? edit.apply(before, args) : null;
  if (checked && leadWorkRefused(store, before!, checked)) return false;
  commitDocument(store, label, (p) => (checked && p === before ? checked : edit.apply(p, args)));
  return store.getState().document.project !== before;
}

/**
 * In a team project where this user is an annotator, an edit that changes a lead's records (the
 * graph, scenes, profiles, taxonomy, decisions of disputes) is not applied: the server would refuse
 * it and the two would part. Said in the notice; true when refused.
 */
function leadWorkRefused(store: StudioStore, before: Project, after: Project): boolean {
  const team = store.getState().team;
  if (after === before) return false;
  const what = leadWorkIn(diffProjects(before, after).map((c) => c.key));
  if (!what) return false;
  const db = team.url ? databaseOf(team.url) : 'this project';
  setEphemeral(store, {
    notice: `Only a lead of ${db} changes ${what}: ${team.user ?? 'you'} ${team.user ? 'is' : 'are'} an annotator in this team project. Ask a lead — or the admin, with team create-project --lead ${team.user ?? '<name>'}.`,
  });
  return true;
}

/** The project with one scene changed (the same project when it did not change). */
export function withScene(p: Project, sceneId: string, fn: (s: Scene) => Scene): Project {
  let changed = false;
  const scenes = p.scenes.map((s) => {
    if (s.id !== sceneId) return s;
    const next = fn(s);
    changed ||= next !== s;
    return next;
  });
  return changed ? { ...p, scenes } : p;
}

/** An edit of one scene, named by `sceneId` in its arguments. */
export function sceneEdit<A>(id: string, label: string, fn: (scene: Scene, args: A) => Scene): Edit<A & { sceneId: string }> {
  return defineEdit(id, label, (p, a) => withScene(p, a.sceneId, (s) => fn(s, a)));
}

/** The project with its QA items changed (the same project when they did not change). */
export function withItems(p: Project, fn: (items: QaItem[]) => QaItem[]): Project {
  const items = fn(p.qa.items);
  return items === p.qa.items ? p : { ...p, qa: { ...p.qa, items } };
}

/** An edit of one QA item, named by `itemId` in its arguments. */
export function itemEdit<A>(id: string, label: string, fn: (item: QaItem, args: A) => QaItem): Edit<A & { itemId: string }> {
  return defineEdit(id, label, (p, a) =>
    withItems(p, (items) => {
      let changed = false;
      const next = items.map((i) => {
        if (i.id !== a.itemId) return i;
        const n = fn(i, a);
        changed ||= n !== i;
        return n;
      });
      return changed ? next : items;
    }),
  );
}
