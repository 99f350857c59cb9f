import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oracleBaseline } from '../../src/core/scoring/baselines.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { readJsonFiles } from '../../src/cli/files.ts';
import { REPO } from '../support/cli.ts';
import { studio } from '../support/browser.ts';
import { hostileJudge } from '../hostile/judgeServer.ts';

const KEY = 'sk-browser-judge-77aa11';

/** Predictions for the sample house that the judge must see: "no" with a reason, `n` distinct reasons. */
function predictionsFile(dir: string, n: number): string {
  const project = readRelease(readJsonFiles(join(REPO, 'scenes/sample-house'))).project!;
  const seen = new Set<string>();
  const rows = oracleBaseline(project)
    .filter((r) => r.answer === 'no' && r.reason && !seen.has(r.reason) && seen.add(r.reason))
    .slice(0, n);
  const file = join(dir, `silent-judge-${n}.jsonl`);
  writeFileSync(file, rows.map((r) => JSON.stringify({ ...r, model: 'vlm' })).join('\n') + '\n');
  return file;
}

describe('the HTTP judge in the browser gives up and can be cancelled', () => {
  const { open } = studio();
  const dir = mkdtempSync(join(tmpdir(), 'traversa-judge-e2e-'));
  /** An endpoint that accepts every request (after the CORS preflight) and never answers. */
  let judge: Awaited<ReturnType<typeof hostileJudge>>;
  beforeAll(async () => {
    judge = await hostileJudge(() => {});
  });
  afterAll(async () => {
    await judge.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function scoreWithSilentJudge(page: Page, predictions: string, timeoutSeconds?: number) {
    await page.locator('[data-scene=sample-house]').waitFor();
    await page.keyboard.press('4');
    await page.getByTestId('load-prediction-files').setInputFiles(predictions);
    await expect.poll(() => page.getByTestId('prediction-files').textContent()).toMatch(/^1 file from/);
    await page.getByLabel('Judge', { exact: true }).selectOption('http');
    await page.getByLabel('Judge endpoint').fill(judge.url);
    await page.getByLabel('Judge model').fill('silent');
    await page.getByLabel('Judge API key').fill(KEY);
    if (timeoutSeconds !== undefined) await page.getByLabel('Judge timeout (seconds)').fill(String(timeoutSeconds));
    await page.getByTestId('run-score').click();
  }

  it('Cancel aborts the requests in flight, re-enables Score at once, and the records say "judge cancelled"', async () => {
    const page = await open();
    const before = judge.seen.length;
    await scoreWithSilentJudge(page, predictionsFile(dir, 6));
    await expect.poll(() => judge.seen.length - before, { timeout: 20_000 }).toBe(4); // four at a time, all hanging
    expect(judge.seen.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(await page.getByTestId('run-score').isDisabled()).toBe(true);

    const clicked = Date.now();
    await page.getByTestId('cancel-score').click();
    await expect.poll(() => page.getByTestId('run-score').isEnabled(), { timeout: 5_000 }).toBe(true);
    expect(Date.now() - clicked).toBeLessThan(5_000);
    expect(await page.getByTestId('score-note').textContent()).toBe(
      'Judging cancelled: 6 records not judged — RV and the CapNav composite are withheld (each record says so).',
    );
    // No headline composite without the incomplete mark: the table withholds RV and CapNav and says why.
    const row = page.locator('[data-testid=score-table] tr[data-model]').first();
    await expect.poll(() => row.locator('td[data-col=capnav]').textContent()).toMatch(/^withheld \(\d+\.\d\d…\d+\.\d\d\) 6 not judged$/);
    expect(await row.locator('td[data-col=rv]').textContent()).toBe('withheld (0.00…100.00) 6 not judged');
    expect(await page.getByTestId('unjudged').textContent()).toMatch(/^INCOMPLETE: the judge could not judge 6 of 6 records \(6 × judge cancelled\)/);
    await page.getByTestId('score-table').screenshot({ path: join(REPO, 'tmp/score-withheld.png') });
    await expect.poll(() => judge.seen.slice(before).every((r) => r.closedEarly)).toBe(true);
    expect(judge.seen.length - before).toBe(4); // nothing more was sent
    expect(await page.getByTestId('cancel-score').count()).toBe(0);

    await page.locator('[data-testid=records] tbody tr').first().click();
    await expect
      .poll(() => page.getByTestId('record-judge').textContent())
      .toContain('not judged, RV unknown (RV and the composite are withheld) — judge cancelled');
  });

  it('with a time limit of 1 s, a request without a reply is given up (four attempts), and the record says the judge timed out', async () => {
    const page = await open();
    await page.reload();
    const before = judge.seen.length;
    const started = Date.now();
    await scoreWithSilentJudge(page, predictionsFile(dir, 1), 1);
    // 4 attempts of 1 s with 1 + 2 + 4 s between them.
    await expect.poll(() => page.getByTestId('run-score').isEnabled(), { timeout: 30_000, interval: 500 }).toBe(true);
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(judge.seen.length - before).toBe(4);
    await page.locator('[data-testid=records] tbody tr').first().click();
    await expect
      .poll(() => page.getByTestId('record-judge').textContent())
      .toContain('not judged, RV unknown (RV and the composite are withheld) — judge failed after 4 attempts: judge timed out (no reply within 1 s)');
  });
});
