// The README's screenshot, taken of the built studio on the bundled sample house (`npm run docs:screenshot`).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../src/cli/chromium.ts';
import { serveBuiltApp } from './browser.ts';
import { REPO } from './cli.ts';

const server = await serveBuiltApp();
const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  await page.goto(server.url);
  await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
  await page.keyboard.press('3');
  await page.getByTestId('annotator').fill('ana');
  await page.getByTestId('annotator').evaluate((el) => (el as HTMLInputElement).blur());
  await page.getByTestId('queue-item').waitFor();
  await page.waitForTimeout(1500);
  mkdirSync(join(REPO, 'docs/images'), { recursive: true });
  await page.screenshot({ path: join(REPO, 'docs/images/studio.png') });
  console.log('wrote docs/images/studio.png');
} finally {
  await browser.close();
  await server.close();
}
