import type { Project } from '../../../core/project.ts';
import type { LoadedMesh } from '../../../engine/mesh/load.ts';
import { renderSetOfMark } from '../../../engine/video/setOfMark.ts';
import type { SetOfMarkPicture } from '../../../formats/qa/bundle.ts';

export interface SetOfMarkRun {
  pictures: Map<string, SetOfMarkPicture[]>;
  /** Items with marks and viewpoints whose scene's scan is not loaded in this tab (no picture). */
  notRendered: { itemId: string; sceneId: string }[];
}

/**
 * The Set-of-Mark pictures of the QA bundle: every accepted item with numbered marks, each of its
 * saved viewpoints rendered with the marks drawn on (engine/video/setOfMark.ts), where its scene's
 * scan is loaded in this tab.
 */
export async function setOfMarkPictures(project: Project, scan: (sceneId: string) => LoadedMesh | undefined): Promise<SetOfMarkRun> {
  const pictures = new Map<string, SetOfMarkPicture[]>();
  const notRendered: SetOfMarkRun['notRendered'] = [];
  for (const item of project.qa.items) {
    if (item.status !== 'accepted' || !item.anchors.marks.length || !item.anchors.viewpoints.length) continue;
    const loaded = scan(item.sceneId);
    if (!loaded) {
      notRendered.push({ itemId: item.id, sceneId: item.sceneId });
      continue;
    }
    const list: SetOfMarkPicture[] = [];
    for (const view of item.anchors.viewpoints) {
      const shot = await renderSetOfMark(loaded, view, item.anchors.marks);
      list.push({ viewpoint: view.id, png: new Uint8Array(await shot.png.arrayBuffer()), marksOutside: shot.outside });
    }
    pictures.set(item.id, list);
  }
  return { pictures, notRendered };
}
