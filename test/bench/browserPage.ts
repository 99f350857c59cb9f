import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, preview } from 'vite';
import { BrowserProfile } from '../support/browser.ts';

const REPO = resolve(import.meta.dirname, '../..');

/**
 * Build a bench page (test/bench/browser/<name>.html) with the app's Vite config, serve it with
 * the given extra files beside it, open it in headless Chromium (the browser tests' flags), wait
 * for `window.benchReady`, and return what `window[entry](baseUrl)` resolves to.
 */
export async function runBenchPage<T>(name: string, entry: string, files: { name: string; data: string | Uint8Array }[]): Promise<T> {
  const out = mkdtempSync(join(tmpdir(), 'traversa-bench-'));
  try {
    await build({
      configFile: join(REPO, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: out, emptyOutDir: true, sourcemap: false, rollupOptions: { input: join(REPO, `test/bench/browser/${name}.html`) } },
    });
    for (const f of files) writeFileSync(join(out, f.name), f.data);
    const server = await preview({
      configFile: join(REPO, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir: out },
      preview: { port: 0, host: '127.0.0.1' },
    });
    const profile = new BrowserProfile();
    try {
      const base = server.resolvedUrls!.local[0]!;
      const page = await profile.page(`${base}test/bench/browser/${name}.html`);
      await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true);
      return (await page.evaluate(({ e, b }) => (window as unknown as Record<string, (u: string) => Promise<unknown>>)[e]!(b), { e: entry, b: base })) as T;
    } finally {
      await profile.dispose();
      await server.close();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
