import type { Page } from 'playwright-core';

/**
 * Put a touring video for a scene of the open project straight into the studio's store (the
 * `videos` table of IndexedDB, in the shape persistence/videos.ts writes), as if the tour had been
 * recorded: a real WebM made in the page by MediaRecorder from a canvas that shows the time
 * (`seconds` long, real time), poses at 2 fps, and one frame set of `frames` small JPEGs
 * sampled evenly. Returns the project id and the frames' times.
 */
export async function storeTestVideo(
  page: Page,
  sceneId: string,
  opts: { seconds: number; frames: number; budget?: string },
): Promise<{ projectId: string; times: number[] }> {
  return page.evaluate(
    async ({ sceneId, seconds, frames, budget }) => {
      const projectId = sessionStorage.getItem('traversa.project') ?? localStorage.getItem('traversa.lastProject');
      if (!projectId) throw new Error('no open project');
      const canvas = document.createElement('canvas');
      canvas.width = 160;
      canvas.height = 120;
      const g = canvas.getContext('2d')!;
      const draw = (t: number) => {
        g.fillStyle = `hsl(${(t * 40) % 360}, 70%, 55%)`;
        g.fillRect(0, 0, 160, 120);
        g.fillStyle = '#000';
        g.font = '28px sans-serif';
        g.fillText(t.toFixed(1), 30, 70);
      };
      // The video: recorded in real time from the canvas.
      const recorder = new MediaRecorder(canvas.captureStream(10), { mimeType: 'video/webm;codecs=vp8' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const t0 = performance.now();
      recorder.start(200);
      await new Promise<void>((done) => {
        const tick = () => {
          const t = (performance.now() - t0) / 1000;
          draw(t);
          if (t < seconds + 0.3) requestAnimationFrame(tick);
          else done();
        };
        tick();
      });
      recorder.stop();
      await new Promise((r) => {
        recorder.onstop = r;
      });
      const blob = new Blob(chunks, { type: 'video/webm' });
      // The frame set: `frames` JPEGs at evenly spaced times.
      const fps = 2;
      const poseCount = Math.round(seconds * fps);
      const times = Array.from({ length: frames }, (_, i) => Math.round((i * poseCount) / frames) / fps);
      const jpegs: Blob[] = [];
      for (const [i, t] of times.entries()) {
        draw(t);
        g.fillText(`#${i}`, 30, 105);
        jpegs.push(await new Promise<Blob>((r) => canvas.toBlob((b) => r(b!), 'image/jpeg', 0.6)));
      }
      const poses = {
        fps,
        fovDeg: 75,
        eyeHeightM: 1.5,
        width: 160,
        height: 120,
        up: 'y',
        frames: Array.from({ length: poseCount }, (_, i) => ({ t: i / fps, position: { x: 3.37, y: 1.52, z: 4.9 }, yawDeg: i * 10, pitchDeg: 0 })),
        nodesInView: [],
      };
      const frameList = times.map((t, i) => ({ file: `${String(i).padStart(3, '0')}.jpg`, index: Math.round(t * fps), t }));
      const db = await new Promise<IDBDatabase>((ok, bad) => {
        const r = indexedDB.open('traversa');
        r.onsuccess = () => ok(r.result);
        r.onerror = () => bad(r.error);
      });
      await new Promise<void>((ok, bad) => {
        const tx = db.transaction('videos', 'readwrite');
        tx.objectStore('videos').put({
          p: projectId,
          sceneId,
          savedAt: Date.now(),
          blob,
          mime: 'video/webm',
          poses,
          frameSets: [{ budget, frames: frameList, jpegs }],
        });
        tx.oncomplete = () => ok();
        tx.onerror = () => bad(tx.error);
      });
      db.close();
      return { projectId, times };
    },
    { sceneId, seconds: opts.seconds, frames: opts.frames, budget: opts.budget ?? '16' },
  );
}

/** Remove a scene's stored video (the studio then has none for it). */
export async function deleteTestVideo(page: Page, projectId: string, sceneId: string): Promise<void> {
  await page.evaluate(
    async ({ projectId, sceneId }) => {
      const db = await new Promise<IDBDatabase>((ok, bad) => {
        const r = indexedDB.open('traversa');
        r.onsuccess = () => ok(r.result);
        r.onerror = () => bad(r.error);
      });
      await new Promise<void>((ok, bad) => {
        const tx = db.transaction('videos', 'readwrite');
        tx.objectStore('videos').delete([projectId, sceneId]);
        tx.oncomplete = () => ok();
        tx.onerror = () => bad(tx.error);
      });
      db.close();
    },
    { projectId, sceneId },
  );
}
