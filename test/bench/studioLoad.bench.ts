// `npm run bench -- load`: a ~1 M-triangle scan loaded into the built studio as a user loads it (a new
// scene, "Load scan…"), and the first measuring click on it, with every main-thread block recorded
// by the Long Tasks API. The target: no block over 200 ms while the scan loads and on the first click
// (a frozen page is what a user sees of a slow load). Side by side: the clean ~1 M-triangle house and
// the same house as a reconstruction looks (scenes/generate.ts --scan-like all).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { build, preview } from 'vite';
import { scanLikeFile, writeScanLike } from '../../scenes/generate.ts';
import { BrowserProfile } from '../support/browser.ts';
import { largeSample } from './largeSample.ts';
import type { BenchSection } from './run.ts';

const REPO = resolve(import.meta.dirname, '../..');
const TARGET_MS = 200;

export interface Window_ {
  __lt?: [number, number][];
}
interface Phase {
  ms: number;
  blocks: number[];
}
interface Run {
  label: string;
  file: string;
  load: Phase;
  click: Phase;
  measured: string;
}

/** Long tasks (start, duration) from the page's first moment on. */
export function recordLongTasks(): void {
  const w = window as unknown as Window_;
  w.__lt = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__lt!.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
}

/** The built studio on the sample house in a fresh profile, recording every long task from the start. */
export async function recordingPage(profile: BrowserProfile, base: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await profile.open();
  await context.addInitScript(recordLongTasks);
  const page = await profile.page(base);
  await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
  return { context, page };
}

/** With TRAVERSA_BENCH_PROFILE set, a CPU profiler started on the page (1 ms samples); else null. */
export async function startProfiler(context: BrowserContext, page: Page): Promise<CDPSession | null> {
  if (!process.env.TRAVERSA_BENCH_PROFILE) return null;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  await cdp.send('Profiler.start');
  return cdp;
}

const now = (page: Page) => page.evaluate(() => performance.now());
const blocksBetween = async (page: Page, t0: number, t1: number) => {
  // A task that started before t1 is reported when it ends: give the observer a moment.
  await page.waitForTimeout(300);
  return (await page.evaluate(() => (window as unknown as Window_).__lt ?? [])).filter(([s, d]) => s + d >= t0 && s <= t1).map(([, d]) => d);
};

async function measureOne(base: string, label: string, file: string): Promise<Run> {
  const profile = new BrowserProfile();
  try {
    const { context, page } = await recordingPage(profile, base);
    await page.getByTestId('new-scene').click();
    await page.getByTestId('workspace').waitFor();
    await page.waitForTimeout(500);
    const cdp = await startProfiler(context, page);
    const t0 = await now(page);
    await page.getByTestId('load-mesh').setInputFiles([file]);
    await page.getByTestId('mesh-ready').waitFor({ timeout: 300_000 });
    // Drawn: two animation frames after the scan bar says ready.
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    const t1 = await now(page);
    const load = { ms: t1 - t0, blocks: await blocksBetween(page, t0, t1) };
    if (cdp) printProfile(label, (await cdp.send('Profiler.stop')).profile as unknown as CpuProfile);
    // The first measuring click: the top view, clear-width mode, a click in the middle of the view.
    await page.keyboard.press('t');
    await page.waitForTimeout(1500);
    await page.keyboard.press('m');
    await page.keyboard.press('w');
    const box = (await page.getByTestId('workspace').boundingBox())!;
    const t2 = await now(page);
    if (cdp) await cdp.send('Profiler.start');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.getByTestId('measure-readout').waitFor({ timeout: 120_000 });
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
    const t3 = await now(page);
    const measured = (await page.getByTestId('measure-readout').textContent()) ?? '';
    if (cdp) {
      const all = await page.evaluate(() => (window as unknown as Window_).__lt ?? []);
      console.log(
        `${label}: long tasks from the load's start (ms): ${all
          .filter(([st]) => st + 0 >= t0 - 1000)
          .map(([st, d]) => `${Math.round(st - t0)}+${Math.round(d)}`)
          .join(
            ', ',
          )}; drawn at ${Math.round(t1 - t0)}, top view at ${Math.round(t1 - t0) + 0}, click at ${Math.round(t2 - t0)}, readout at ${Math.round(t3 - t0)}`,
      );
    }
    if (cdp) printProfile(`${label}, the first click`, (await cdp.send('Profiler.stop')).profile as unknown as CpuProfile);
    return { label, file, load, click: { ms: t3 - t2, blocks: await blocksBetween(page, t2, t3) }, measured };
  } finally {
    await profile.dispose();
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** TRAVERSA_BENCH_PROFILE=1: the main thread's busiest functions during the load (self time, and with what they call). */
export function printProfile(label: string, p: CpuProfile): void {
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
  };
  const selfBy = new Map<string, number>(),
    totalBy = new Map<string, number>();
  for (const [id, t] of self) {
    selfBy.set(name(id), (selfBy.get(name(id)) ?? 0) + t);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = name(at);
      if (!seen.has(k)) {
        seen.add(k);
        totalBy.set(k, (totalBy.get(k) ?? 0) + t);
      }
    }
  }
  const top = (m: Map<string, number>) =>
    [...m]
      .filter(([k]) => !k.startsWith('('))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([k, t]) => `  ${Math.round(t).toString().padStart(6)} ms  ${k}`)
      .join('\n');
  console.log(`\n${label}: main thread during the load, self time\n${top(selfBy)}\nwith callees\n${top(totalBy)}`);
}

const ms = (x: number) => `${Math.round(x)} ms`;
const worst = (p: Phase) => (p.blocks.length ? Math.max(...p.blocks) : 0);

export const studioLoadBench: BenchSection = {
  name: 'load',
  title: 'a ~1 M-triangle scan loaded into the built studio and the first measuring click: main-thread blocks (Long Tasks API), clean and scan-like',
  async run() {
    const large = largeSample();
    const scanLike = scanLikeFile('all');
    if (!existsSync(scanLike)) {
      console.log(`Generating the scan-like house (${relative(REPO, scanLike)})…`);
      await writeScanLike('all');
    }
    const out = mkdtempSync(join(tmpdir(), 'traversa-bench-studio-'));
    try {
      await build({ configFile: join(REPO, 'vite.config.ts'), logLevel: 'warn', build: { outDir: out, emptyOutDir: true, sourcemap: false } });
      const server = await preview({
        configFile: join(REPO, 'vite.config.ts'),
        logLevel: 'silent',
        build: { outDir: out },
        preview: { port: 0, host: '127.0.0.1' },
      });
      try {
        const base = server.resolvedUrls!.local[0]!;
        const runs = [await measureOne(base, 'clean ~1 M', large), await measureOne(base, 'scan-like (all)', scanLike)];
        const rows = [
          ['scan', 'load → drawn', 'blocks > 50 ms', 'longest block', 'first measuring click', 'its longest block', `target: every block < ${TARGET_MS} ms`],
        ];
        for (const r of runs) {
          const longest = Math.max(worst(r.load), worst(r.click));
          rows.push([
            `${r.label} (${relative(REPO, r.file)})`,
            ms(r.load.ms),
            `${r.load.blocks.length} (${ms(r.load.blocks.reduce((a, b) => a + b, 0))} in all)`,
            ms(worst(r.load)),
            ms(r.click.ms),
            ms(worst(r.click)),
            longest < TARGET_MS ? 'met' : `NOT MET (${ms(longest)})`,
          ]);
        }
        const w = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
        for (const row of rows) console.log(row.map((c, i) => c.padEnd(w[i]!)).join('   '));
        for (const r of runs)
          console.log(
            `\n${r.label}: blocks during the load ${r.load.blocks.map(ms).join(', ') || 'none'}; on the click ${r.click.blocks.map(ms).join(', ') || 'none'}; the readout said "${r.measured}"`,
          );
      } finally {
        await server.close();
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
};
