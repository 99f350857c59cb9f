import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * Decode a video inside the page with mediabunny (its self-contained ES module bundle, imported
 * from a blob URL, so the app needs no test hook) and WebCodecs: every frame's timestamp, a few
 * frames as PNG data URLs, and pixel patches at given points of given frames.
 */

const bundle = readFileSync(
  createRequire(import.meta.url)
    .resolve('mediabunny')
    .replace(/dist\/.*$/, 'dist/bundles/mediabunny.min.mjs'),
  'utf8',
);

export interface Decoded {
  codec: string | null;
  width: number;
  height: number;
  durationS: number;
  timestamps: number[];
  /** Frame index → PNG data URL, for the frames asked for. */
  pictures: Record<number, string>;
  /** Per probe: the mean RGB (0–255) of a 5 × 5 patch round (x, y) of frame `frame`. */
  probes: { frame: number; x: number; y: number; rgb: [number, number, number] }[];
  /** Per frame: mean luminance (0–255) and its spread, to tell a picture from a black or flat frame. */
  luma: { mean: number; sd: number }[];
}

/** `source`: a JS expression in the page giving the video's Blob (e.g. fetched from the player's src). */
export async function decodeInPage(page: Page, source: string, pictures: number[], probes: { frame: number; x: number; y: number }[]): Promise<Decoded> {
  return page.evaluate(
    async ({ code, source, pictures, probes }) => {
      const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
      // Through eval: the test runner rewrites a literal import() in code it loads, and this runs in the page.
      const mb = await (0, eval)('(u) => import(u)')(url);
      const blob: Blob = await (0, eval)(source);
      const input = new mb.Input({ source: new mb.BlobSource(blob), formats: mb.ALL_FORMATS });
      const track = await input.getPrimaryVideoTrack();
      if (!track) throw new Error('the file has no video track');
      const out = {
        codec: track.codec as string | null,
        width: track.displayWidth as number,
        height: track.displayHeight as number,
        durationS: await input.computeDuration(),
        timestamps: [] as number[],
        pictures: {} as Record<number, string>,
        probes: [] as { frame: number; x: number; y: number; rgb: [number, number, number] }[],
        luma: [] as { mean: number; sd: number }[],
      };
      const sink = new mb.CanvasSink(track, { poolSize: 0 });
      let k = 0;
      for await (const wrapped of sink.canvases()) {
        const canvas = wrapped.canvas as HTMLCanvasElement | OffscreenCanvas;
        out.timestamps.push(wrapped.timestamp);
        const ctx = (canvas as HTMLCanvasElement).getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
        const img = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        let sum = 0,
          sq = 0;
        const n = canvas.width * canvas.height;
        for (let i = 0; i < img.length; i += 4) {
          const y = 0.299 * img[i]! + 0.587 * img[i + 1]! + 0.114 * img[i + 2]!;
          sum += y;
          sq += y * y;
        }
        out.luma.push({ mean: sum / n, sd: Math.sqrt(Math.max(0, sq / n - (sum / n) ** 2)) });
        for (const p of probes.filter((q) => q.frame === k)) {
          const rgb: [number, number, number] = [0, 0, 0];
          let c = 0;
          for (let dy = -2; dy <= 2; dy++)
            for (let dx = -2; dx <= 2; dx++) {
              const x = Math.min(canvas.width - 1, Math.max(0, Math.round(p.x) + dx)),
                y = Math.min(canvas.height - 1, Math.max(0, Math.round(p.y) + dy));
              const i = (y * canvas.width + x) * 4;
              rgb[0] += img[i]!;
              rgb[1] += img[i + 1]!;
              rgb[2] += img[i + 2]!;
              c++;
            }
          out.probes.push({ ...p, rgb: rgb.map((v) => v / c) as [number, number, number] });
        }
        if (pictures.includes(k)) {
          const b =
            'convertToBlob' in canvas
              ? await canvas.convertToBlob({ type: 'image/png' })
              : await new Promise<Blob>((r) => (canvas as HTMLCanvasElement).toBlob((x) => r(x!), 'image/png'));
          out.pictures[k] = await new Promise<string>((r) => {
            const fr = new FileReader();
            fr.onload = () => r(fr.result as string);
            fr.readAsDataURL(b);
          });
        }
        k++;
      }
      return out;
    },
    { code: bundle, source, pictures, probes },
  );
}
