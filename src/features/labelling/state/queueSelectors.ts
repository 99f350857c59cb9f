import { agentOrder } from '../../../core/agents.ts';
import { buildQueue, itemKey, type QueueItem } from '../../../core/queue.ts';
import type { Scene } from '../../../core/project.ts';
import { unreviewedTasks } from '../../../core/taskgen/unreviewed.ts';
import { selectedScene } from '../../../state/commands.ts';
import type { StudioState } from '../../../state/store.ts';
import { followSliceIn, nodesSlice, type ViewSlice } from '../../../state/slice.ts';
import { feedWorkspace } from '../../../state/workspaceFeeds.ts';

let cache: { scene: Scene; profiles: unknown; qa: unknown; items: QueueItem[] } | null = null;

/**
 * The selected scene's labelling queue (rebuilt only when the scene, the profiles or the items
 * change), without the generated tasks a reviewer has not accepted yet.
 */
export function sceneQueue(s: StudioState): QueueItem[] {
  const scene = selectedScene(s);
  const project = s.document.project;
  if (!scene || !project) return [];
  const profiles = project.profiles;
  // Labels change on every decision but do not change the queue: key the cache on the graph, questions and items.
  if (
    cache &&
    cache.profiles === profiles &&
    cache.qa === project.qa.items &&
    cache.scene.graph === scene.graph &&
    cache.scene.questions === scene.questions &&
    cache.scene.hallucinated === scene.hallucinated &&
    cache.scene.id === scene.id
  )
    return cache.items;
  const items = buildQueue(scene, agentOrder(profiles), new Set(unreviewedTasks(project.qa.items, scene.id).keys()));
  cache = { scene, profiles, qa: project.qa.items, items };
  return items;
}

export function currentItem(s: StudioState): QueueItem | undefined {
  const items = sceneQueue(s);
  return items[Math.min(s.session.queueCursor, items.length - 1)];
}

/**
 * The drive of the current queue item, if there is one. A drive answered after the queue moved
 * on (driving is asynchronous) belongs to another item and is not shown.
 */
export function currentDrive(s: StudioState): StudioState['ephemeral']['drive'] {
  const d = s.ephemeral.drive,
    item = currentItem(s);
  return d && item && d.sceneId === s.session.sceneId && d.itemKey === itemKey(item) ? d : null;
}

/**
 * The slice of the current queue item's segment: at its floor, or for a segment between floors
 * (stairs, a lift) at the higher one with the lower one still shown; lower floors are hidden, so
 * their nodes and names do not sit under the current floor's. Null without an item or floors.
 */
export function segmentSlice(s: StudioState): ViewSlice | null {
  const item = currentItem(s);
  return item ? nodesSlice(s, [item.from, item.to]) : null;
}
followSliceIn('label', segmentSlice);
feedWorkspace({ segment: currentItem, drive: currentDrive });
