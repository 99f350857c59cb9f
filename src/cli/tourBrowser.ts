import { existsSync } from 'node:fs';
import type { TourSettings } from '../core/tour/settings.ts';
import type { FrameBudget, SampledFrame, TourPoses } from '../core/tour/types.ts';
import type { TourJob, TourJobResult } from '../core/tour/renderJob.ts';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.ts';
import { InputError } from './files.ts';
import { startTourServer } from './tourServer.ts';

/**
 * One headless Chromium and one loopback server for a run's tours: `cli tour` renders one scan
 * with it, the release form (`tour --gt … --scans …`) every scan of its shard, one after another,
 * in one page of the same browser (renewed after a failure and every PAGE_TOURS tours).
 */

/** Tours rendered in one page before it is replaced by a fresh one. */
const PAGE_TOURS = 20;

export interface TourRender {
  /** The scan's files, the main one first, each with the name the page loads it by. */
  files: { path: string; name: string }[];
  nodes: TourJob['graph']['nodes'];
  settings: TourSettings;
  up: 'y' | 'z';
  /** The frame budgets to keep as JPEGs (the studio's sampling). */
  budgets: readonly FrameBudget[];
}

export interface RenderedTour {
  video: Buffer;
  mime: string;
  codec: 'avc' | 'vp9';
  poses: TourPoses;
  /** Each budget's frames with their JPEGs, in file order. */
  frameSets: Partial<Record<FrameBudget, { frames: SampledFrame[]; jpegs: Buffer[] }>>;
  skippedLegs: TourJobResult['skippedLegs'];
  unseen: string[];
  timings: TourJobResult['timings'];
}

export interface TourBrowser {
  render: (job: TourRender, log: (line: string) => void) => Promise<RenderedTour>;
  close: () => Promise<void>;
}

/** Chromium is there to be started (checked before anything is built or started). */
export function checkChromium(): string {
  const chromium = chromiumPath();
  if (!existsSync(chromium)) throw new InputError(`no Chromium at ${chromium}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH`);
  return chromium;
}

/** Start the server on the built studio (`dist`) and the browser. */
export async function openTourBrowser(dist: string): Promise<TourBrowser> {
  const chromium = checkChromium();
  const server = await startTourServer(dist);
  const { chromium: pw } = await import('playwright-core');
  let browser: Awaited<ReturnType<typeof pw.launch>>;
  try {
    browser = await pw.launch({ executablePath: chromium, headless: true, args: CHROMIUM_ARGS }).catch((e: unknown) => {
      throw new InputError(`Chromium at ${chromium} did not start (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
    });
  } catch (e) {
    await server.close();
    throw e;
  }

  // One page for many tours, as the studio records one after another; a fresh one after a failure,
  // and every PAGE_TOURS tours, so nothing a tour leaves behind adds up over a shard's scans.
  type Page = Awaited<ReturnType<typeof browser.newPage>>;
  let page: Page | null = null;
  let used = 0;
  let say: (line: string) => void = () => {};
  const errors: string[] = [];
  const readyPage = async (): Promise<Page> => {
    if (page && !page.isClosed() && used < PAGE_TOURS) return page;
    await page?.close().catch(() => {});
    page = null;
    const p = await browser.newPage();
    p.on('pageerror', (e) => errors.push(e.message));
    let shown = -1;
    await p.exposeFunction('__traversaTourProgress', (r: { stage: string; fraction: number; message: string }) => {
      const step = Math.floor(r.fraction * 20);
      if (r.stage !== 'render' || step !== shown) {
        shown = step;
        say(`${Math.round(r.fraction * 100)}% ${r.message}`);
      }
    });
    await p.goto(`${server.url}src/app/tour.html`);
    try {
      await p.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 30_000 });
    } catch (e) {
      // Not kept: the next tour starts on a fresh page instead of this one, which has no tour to run.
      await p.close().catch(() => {});
      throw e;
    }
    page = p;
    used = 0;
    return p;
  };

  const render = async (job: TourRender, log: (line: string) => void): Promise<RenderedTour> => {
    server.begin(job.files.map((f) => f.path));
    say = log;
    errors.length = 0;
    const p = await readyPage();
    used++;
    try {
      const pageJob: TourJob = {
        files: job.files.map((f, i) => ({ name: f.name, url: `${server.url}__tour/files/${i}` })),
        graph: { nodes: job.nodes },
        settings: job.settings,
        up: job.up,
        upload: `${server.url}__tour/video`,
        ...(job.budgets.length ? { budgets: [...job.budgets], frames: `${server.url}__tour/frames` } : {}),
      };
      const result = await p
        .evaluate((j) => (window as unknown as { __traversaTour: (job: TourJob) => Promise<TourJobResult> }).__traversaTour(j), pageJob)
        .catch((e: unknown) => {
          const msg = (e instanceof Error ? e.message : String(e)).replace(/^page\.evaluate: (Error: )?/, '').split('\n')[0];
          throw new InputError(`the tour could not be rendered: ${msg}${errors.length ? ` (${errors.join('; ')})` : ''}`);
        });
      const video = server.video();
      if (!video) throw new InputError('the page rendered the tour but sent no video back');
      const frameSets: RenderedTour['frameSets'] = {};
      for (const [budget, frames] of Object.entries(result.frameSets) as [FrameBudget, SampledFrame[]][]) {
        const jpegs = frames.map((f) => server.frame(f.index));
        if (jpegs.some((j) => !j)) throw new InputError(`the page rendered the tour but sent back only some frames of the ${budget} set`);
        frameSets[budget] = { frames, jpegs: jpegs as Buffer[] };
      }
      return {
        video,
        mime: result.mime,
        codec: result.codec === 'vp9' ? 'vp9' : 'avc',
        poses: result.poses,
        frameSets,
        skippedLegs: result.skippedLegs,
        unseen: result.unseen,
        timings: result.timings,
      };
    } catch (e) {
      used = PAGE_TOURS; // the next tour starts on a fresh page
      throw e;
    }
  };

  return {
    render,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
