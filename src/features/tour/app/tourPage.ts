// The page `cli tour` drives in headless Chromium: it loads the scan and graph the command line
// hands it and records the automatic tour with the studio's own code (engine/video/record.ts),
// then sends the video back, and the JPEGs of the frame budgets asked for. Nothing of the
// studio's store or storage is started here.
import type { TourJob, TourJobResult } from '../../../core/tour/renderJob.ts';
import type { FrameBudget, SampledFrame } from '../../../core/tour/types.ts';
import { loadMesh } from '../../../engine/mesh/load.ts';
import { recordTour, type TourProgress } from '../../../engine/video/record.ts';

type TourWindow = { __traversaTour?: (job: TourJob) => Promise<TourJobResult>; __traversaTourProgress?: (p: TourProgress) => void };

(window as unknown as TourWindow).__traversaTour = async (job) => {
  const progress = (p: TourProgress) => (window as unknown as TourWindow).__traversaTourProgress?.(p);
  const t0 = performance.now();
  const files = await Promise.all(
    job.files.map(async (f) => {
      const r = await fetch(f.url);
      if (!r.ok) throw new Error(`${f.name}: could not be read (${r.status})`);
      return { name: f.name, data: await r.arrayBuffer() };
    }),
  );
  progress({ stage: 'route', fraction: 0, message: `Loading ${job.files[0]!.name}` });
  const loaded = await loadMesh({ files }, { upAxis: job.up, unitScale: 1 });
  const loadMs = performance.now() - t0;
  try {
    const rec = await recordTour(loaded, job.graph, job.settings, { onProgress: progress, budgets: job.frames ? (job.budgets ?? []) : [] });
    const sent = await fetch(job.upload, { method: 'POST', body: rec.blob, headers: { 'Content-Type': rec.mime } });
    if (!sent.ok) throw new Error(`the video could not be handed back (${sent.status})`);
    const frameSets: TourJobResult['frameSets'] = {};
    const posted = new Set<number>();
    for (const [budget, set] of Object.entries(rec.frameSets) as [FrameBudget, { frames: SampledFrame[]; jpegs: Blob[] }][]) {
      frameSets[budget] = set.frames;
      for (const [i, f] of set.frames.entries()) {
        if (posted.has(f.index)) continue;
        posted.add(f.index);
        const r = await fetch(`${job.frames}/${f.index}`, { method: 'POST', body: set.jpegs[i]!, headers: { 'Content-Type': 'image/jpeg' } });
        if (!r.ok) throw new Error(`frame ${f.index} could not be handed back (${r.status})`);
      }
    }
    return {
      mime: rec.mime,
      codec: rec.mime.includes('webm') ? 'vp9' : 'avc',
      poses: rec.poses,
      frameSets,
      order: rec.plan.order,
      skippedLegs: rec.plan.skippedLegs,
      unseen: rec.plan.unseen,
      timings: { loadMs, ...rec.timings },
    };
  } finally {
    loaded.dispose();
  }
};
document.body.dataset.ready = 'true';
