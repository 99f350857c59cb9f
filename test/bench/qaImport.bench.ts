// `npm run bench -- qa-import`: generated QA items imported into the built studio as a reviewer
// imports them (QA view, "Import items…"), with every main-thread block recorded by the Long Tasks
// API (issue 25 §12: 20,000 items held the page for 19 s in one 7.8 s task, a 20 MB question for
// 31 s). Side by side in one run: 2,000 and 20,000 items (the time per item should not grow) and a
// file whose one question is 20 MB (refused by its size limit). Target: no block over 200 ms.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, preview } from 'vite';
import { BrowserProfile } from '../support/browser.ts';
import type { BenchSection } from './run.ts';
import { printProfile, recordingPage, startProfiler, type Window_ } from './studioLoad.bench.ts';

const REPO = resolve(import.meta.dirname, '../..');
const TARGET_MS = 200;

const record = (i: number, question = `Is room ${i + 1} next to the hall, as seen from the landing?`) =>
  JSON.stringify({
    sceneId: 'sample-house',
    question,
    answer: { kind: 'yesno', correct: i % 2 === 0 },
    category: { capability: 'spatial' },
    trail: [
      { title: 'Look', text: 'The rooms share a door seen at 00:04.', kind: 'perception' },
      { text: 'So yes.', kind: 'conclusion' },
    ],
    generator: 'bench-generator v1',
  });

async function measureOne(base: string, label: string, file: string, items: number): Promise<Run> {
  const profile = new BrowserProfile();
  try {
    const { context, page } = await recordingPage(profile, base);
    await page.locator('[data-view=qa]').click();
    await page.getByTestId('qa-list').waitFor();
    await page.waitForTimeout(1000);
    const cdp = await startProfiler(context, page);
    const t0 = await page.evaluate(() => performance.now());
    await page.getByTestId('import-items-input').setInputFiles(file);
    await page.getByTestId('import-report').waitFor({ timeout: 300_000 });
    // Stored (the status says so) and drawn.
    await page.waitForFunction(() => document.querySelector('[data-testid=storage-status]')?.textContent === 'Saved in this browser', null, {
      timeout: 300_000,
      polling: 100,
    });
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    const t1 = await page.evaluate(() => performance.now());
    await page.waitForTimeout(300);
    if (cdp) {
      const prof = (await cdp.send('Profiler.stop')).profile as unknown as CpuProfile;
      printProfile(label, prof);
      printLongestRun(label, prof);
    }
    const blocks = (await page.evaluate(() => (window as unknown as Window_).__lt ?? [])).filter(([s, d]) => s + d >= t0 && s <= t1).map(([, d]) => d);
    const report = (await page.getByTestId('import-report').textContent()) ?? '';
    return { label, items, ms: t1 - t0, blocks, report };
  } finally {
    await profile.dispose();
  }
}

const ms = (x: number) => `${Math.round(x)} ms`;
interface Run {
  label: string;
  items: number;
  ms: number;
  blocks: number[];
  report: string;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** TRAVERSA_BENCH_PROFILE=1: what the main thread did in its longest unbroken busy stretch (no idle sample), with callees. */
function printLongestRun(label: string, p: CpuProfile): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const isIdle = (id: number) => byId.get(id)!.callFrame.functionName === '(idle)';
  let best = { from: 0, to: 0, ms: 0 },
    from = 0,
    run = 0;
  p.samples.forEach((id, i) => {
    if (isIdle(id)) {
      run = 0;
      from = i + 1;
      return;
    }
    run += (p.timeDeltas[i] ?? 0) / 1000;
    if (run > best.ms) best = { from, to: i, ms: run };
  });
  const total = new Map<string, number>();
  for (let i = best.from; i <= best.to; i++) {
    const seen = new Set<string>();
    for (let at: number | undefined = p.samples[i]; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      const k = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
      if (!seen.has(k)) {
        seen.add(k);
        total.set(k, (total.get(k) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
      }
    }
  }
  console.log(
    `\n${label}: the longest busy stretch, ${ms(best.ms)}, with callees\n${[...total]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 40)
      .map(([k, t]) => `  ${Math.round(t).toString().padStart(6)} ms  ${k}`)
      .join('\n')}`,
  );
}

export const qaImportBench: BenchSection = {
  name: 'qa-import',
  title: 'generated QA items imported into the built studio: 2,000 and 20,000 items and a 20 MB question, main-thread blocks (Long Tasks API)',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'traversa-bench-qa-import-'));
    const out = join(dir, 'dist');
    try {
      const files = {
        small: join(dir, 'items-2000.jsonl'),
        large: join(dir, 'items-20000.jsonl'),
        huge: join(dir, 'question-20mb.jsonl'),
      };
      writeFileSync(files.small, Array.from({ length: 2_000 }, (_, i) => record(i)).join('\n') + '\n');
      writeFileSync(files.large, Array.from({ length: 20_000 }, (_, i) => record(i)).join('\n') + '\n');
      writeFileSync(files.huge, [record(0), record(1, `Is it ${'x'.repeat(20_000_000)}?`)].join('\n') + '\n');
      await build({
        configFile: join(REPO, 'vite.config.ts'),
        logLevel: 'warn',
        build: { outDir: out, emptyOutDir: true, sourcemap: false, ...(process.env.TRAVERSA_BENCH_PROFILE ? { minify: false } : {}) },
      });
      const server = await preview({
        configFile: join(REPO, 'vite.config.ts'),
        logLevel: 'silent',
        build: { outDir: out },
        preview: { port: 0, host: '127.0.0.1' },
      });
      try {
        const base = server.resolvedUrls!.local[0]!;
        const runs = [
          await measureOne(base, '2,000 items', files.small, 2_000),
          await measureOne(base, '20,000 items', files.large, 20_000),
          await measureOne(base, 'a 20 MB question', files.huge, 2),
        ];
        const rows = [['import', 'to stored and drawn', 'per item', 'blocks > 50 ms', 'longest block', `target: every block < ${TARGET_MS} ms`]];
        for (const r of runs) {
          const longest = r.blocks.length ? Math.max(...r.blocks) : 0;
          rows.push([
            r.label,
            ms(r.ms),
            `${(r.ms / r.items).toFixed(2)} ms`,
            `${r.blocks.length} (${ms(r.blocks.reduce((a, b) => a + b, 0))} in all)`,
            ms(longest),
            longest < TARGET_MS ? 'met' : `NOT MET (${ms(longest)})`,
          ]);
        }
        const w = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
        for (const row of rows) console.log(row.map((c, i) => c.padEnd(w[i]!)).join('   '));
        console.log(`\n20,000 vs 2,000 items: ${(runs[1]!.ms / runs[0]!.ms).toFixed(1)}× the time for 10× the items`);
        for (const r of runs)
          console.log(`${r.label}: blocks ${r.blocks.map(ms).join(', ') || 'none'}; the report said "${r.report.replace('Dismiss', ' ').slice(0, 200)}"`);
        if (!runs[2]!.report.includes('a question holds at most')) throw new Error('the 20 MB question was not refused by its size limit');
        if (!runs[1]!.report.startsWith('Imported 20000 items')) throw new Error(`the 20,000 items were not imported: ${runs[1]!.report}`);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
