import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { preview, type PreviewServer } from 'vite';
import { CHROMIUM_ARGS, chromiumPath } from '../../src/cli/chromium.ts';

/** Serve the built app (dist/) on a free port. The e2e script builds it first. */
export async function serveBuiltApp(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: PreviewServer = await preview({ preview: { port: 0, strictPort: false, host: '127.0.0.1' }, logLevel: 'silent' });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('the preview server did not report a URL');
  return { url, close: () => server.close() };
}

/**
 * A browser profile that outlives its windows: close it (like closing the browser) and open it
 * again to see what the app stored.
 */
export class BrowserProfile {
  readonly dir = mkdtempSync(join(tmpdir(), 'traversa-profile-'));
  context: BrowserContext | null = null;

  async open(): Promise<BrowserContext> {
    this.context = await chromium.launchPersistentContext(this.dir, {
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
      acceptDownloads: true,
      viewport: { width: 1400, height: 900 },
    });
    return this.context;
  }

  async page(url: string): Promise<Page> {
    const context = this.context ?? (await this.open());
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(url);
    return page;
  }

  async close(): Promise<void> {
    await this.context?.close();
    this.context = null;
  }

  async dispose(): Promise<void> {
    await this.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The usual browser-test setup: the built app served, one browser profile, both torn down after
 * the describe block. `open()` gives the page (the profile's first window).
 */
export function studio(): { profile: BrowserProfile; url: () => string; open: () => Promise<Page> } {
  let server: Awaited<ReturnType<typeof serveBuiltApp>> | null = null;
  const profile = new BrowserProfile();
  beforeAll(async () => {
    server = await serveBuiltApp();
  });
  afterAll(async () => {
    await profile.dispose();
    await server?.close();
  });
  const url = () => server!.url;
  return { profile, url, open: () => profile.page(url()) };
}

/**
 * Import a release folder as a user does: pick it, and when a project is open and the studio asks,
 * open it as a new project. Resolves once the report says what happened.
 */
export async function importFolder(page: Page, dir: string): Promise<string> {
  await page.getByTestId('import-folder').setInputFiles(dir);
  const report = page.getByTestId('import-report');
  await report.waitFor();
  await page.waitForFunction(() => {
    const t = document.querySelector('[data-testid=import-report]')?.textContent ?? '';
    return /^(Read |Imported |Import of |Merged )/.test(t);
  });
  if ((await report.textContent())!.startsWith('Read ')) {
    await page.getByTestId('import-as-new').click();
    await page.waitForFunction(() => /^Imported /.test(document.querySelector('[data-testid=import-report]')?.textContent ?? ''));
  }
  return (await report.textContent())!;
}

/** Give the annotator's name in the labelling queue (labels need one), leaving the keys to the queue. */
export async function nameAnnotator(page: Page, name = 'tester'): Promise<void> {
  const input = page.getByTestId('annotator');
  await input.fill(name);
  await input.evaluate((el) => (el as HTMLInputElement).blur());
}

/** The label records stored in this browser for the sample scene, as "agent segment author" (read from IndexedDB itself). */
export const storedLabels = (page: Page): Promise<string[]> =>
  page.evaluate(async () => {
    const rows = await new Promise<{ z?: Uint8Array<ArrayBuffer>; j?: string }[]>((resolve, reject) => {
      const open = indexedDB.open('traversa');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const all = open.result.transaction('records', 'readonly').objectStore('records').getAll();
        all.onsuccess = () => {
          resolve(all.result);
          open.result.close();
        };
        all.onerror = () => reject(all.error);
      };
    });
    // A row holds its records' text deflated, a list of [key, value, order] (persistence/bucketText.ts).
    const texts = await Promise.all(
      rows.map((row) => (row.z ? new Response(new Blob([row.z]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text() : row.j!)),
    );
    const keys = texts
      .flatMap((text) => (JSON.parse(text) as [string, unknown, number][]).map(([key]) => key))
      .filter((k) => k.startsWith('label/sample-house/'));
    return keys.map((k) => {
      const [, , agent, seg, who] = k.split('/');
      return `${agent} ${seg} ${who}`;
    });
  });

/** The path of the file a click downloads. */
export async function downloaded(page: Page, click: () => Promise<void>): Promise<string> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  return (await d.path())!;
}

/** Make a new scene and load a scan into it through the file input; resolves with the scan bar once the scan is ready. */
export async function newSceneWithScan(page: Page, files: string[]): Promise<string> {
  await page.getByTestId('new-scene').click();
  await page.getByTestId('workspace').waitFor();
  await page.getByTestId('load-mesh').setInputFiles(files);
  await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
  return (await page.getByTestId('mesh-ready').textContent()) ?? '';
}
