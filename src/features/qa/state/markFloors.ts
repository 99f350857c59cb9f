import { worldHeight } from '../../../core/floors.ts';
import type { QaItem } from '../../../core/vqa/item.ts';
import { selectedScene } from '../../../state/commands.ts';
import { openItemRoute } from './evidence.ts';
import { floorAt, nodeFloors, sceneFloors } from '../../../state/slice.ts';
import type { StudioState } from '../../../state/store.ts';

/**
 * Marks of the open item that stand on another floor than every node it references (or its
 * question's route passes): mark id → what to say ("on floor 2; the item's nodes are on floor 1").
 * A mark clicked onto the slab above the room it was meant for — the unsliced view draws the lower
 * floor's names over the upper slab — is caught here. Floors are shown to people from 1.
 */
export function markFloorWarnings(s: StudioState, item: QaItem | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const scene = selectedScene(s);
  if (!item || !scene || !item.anchors.marks.length) return out;
  const ids = [...new Set([...item.anchors.nodes, ...(openItemRoute(s)?.nodes ?? [])])];
  const nodeIdx = ids.length ? nodeFloors(s, ids) : null;
  const floors = sceneFloors(s);
  if (!nodeIdx || floors.length < 2) return out;
  const wanted = new Set(nodeIdx);
  const list = [...wanted]
    .sort((a, b) => a - b)
    .map((f) => f + 1)
    .join(' and ');
  for (const m of item.anchors.marks) {
    const f = floorAt(floors, worldHeight(m, scene.mesh));
    if (!wanted.has(f)) out.set(m.id, `on floor ${f + 1}; the item’s nodes are on floor ${list}`);
  }
  return out;
}
