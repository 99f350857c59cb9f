import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { TourPoses } from '../../../src/core/tour/types.ts';
import { TraversaDb } from '../../../src/persistence/db.ts';
import { deleteStoredProject } from '../../../src/persistence/recordStore.ts';
import { loadSceneVideo, saveSceneVideo, videoScenes } from '../../../src/persistence/videos.ts';

const poses: TourPoses = {
  fps: 2,
  fovDeg: 75,
  eyeHeightM: 1.5,
  width: 64,
  height: 48,
  up: 'y',
  frames: [
    { t: 0, position: { x: 0, y: 1.5, z: 0 }, yawDeg: 0, pitchDeg: 0 },
    { t: 0.5, position: { x: 0.7, y: 1.5, z: 0 }, yawDeg: 0, pitchDeg: 0 },
  ],
  nodesInView: [{ node: 'node_1', intervals: [[0, 0.5]] }],
};
let n = 0;
const freshDb = () => new TraversaDb(`videos-${++n}-${Date.now()}`);

describe('a scene video kept with its project', () => {
  it('comes back with its poses and frame sets, per project and scene', async () => {
    const db = freshDb();
    const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });
    await saveSceneVideo(db, 'p1', 'HOUSE', {
      blob: new Blob([new Uint8Array(10)], { type: 'video/mp4' }),
      mime: 'video/mp4',
      poses,
      frameSets: { '16': { frames: [{ file: '000.jpg', index: 0, t: 0 }], jpegs: [jpeg] } },
    });
    const back = await loadSceneVideo(db, 'p1', 'HOUSE');
    expect(back?.poses).toEqual(poses);
    expect(back?.frameSets['16']?.frames).toEqual([{ file: '000.jpg', index: 0, t: 0 }]);
    expect(back?.blob.size).toBe(10);
    expect(await loadSceneVideo(db, 'p2', 'HOUSE')).toBeUndefined();
    expect(await videoScenes(db, 'p1')).toEqual(['HOUSE']);
  });

  it('reports stored poses it cannot read instead of showing them, and keeps the row', async () => {
    const db = freshDb();
    await db.videos.put({ p: 'p1', sceneId: 'HOUSE', savedAt: 0, blob: new Blob([]), mime: 'video/mp4', poses: { ...poses, fps: -1 }, frameSets: [] });
    await expect(loadSceneVideo(db, 'p1', 'HOUSE')).rejects.toThrow(/HOUSE has unreadable poses/);
    expect(await db.videos.count()).toBe(1);
  });

  it('goes when its project is deleted, and only then', async () => {
    const db = freshDb();
    const video = { blob: new Blob([]), mime: 'video/mp4', poses, frameSets: {} };
    await saveSceneVideo(db, 'p1', 'A', video);
    await saveSceneVideo(db, 'p2', 'A', video);
    await deleteStoredProject(db, 'p1');
    expect(await videoScenes(db, 'p1')).toEqual([]);
    expect(await videoScenes(db, 'p2')).toEqual(['A']);
  });
});
