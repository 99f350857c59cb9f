import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oracleBaseline } from '../../src/core/scoring/baselines.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { readJsonFiles } from '../../src/cli/files.ts';
import { REPO } from '../support/cli.ts';
import { studio } from '../support/browser.ts';
import { completion, hostileJudge } from '../hostile/judgeServer.ts';

/**
 * Issue 23 §2 in the browser: a judge whose verdict quotes a URL with `?key=…` is read (the reply
 * is parsed first), its verdict counts, and what the studio shows has the key masked; a reply that
 * is not JSON at all is still a record the judge could not judge.
 */
describe('the HTTP judge in the browser reads a verdict that quotes a key, and shows it masked', () => {
  const { open } = studio();
  const dir = mkdtempSync(join(tmpdir(), 'traversa-judge-redact-'));
  let judge: Awaited<ReturnType<typeof hostileJudge>>;
  beforeAll(async () => {
    judge = await hostileJudge((req, res) => {
      if (req.body.includes('GARBLED')) {
        completion(res, 'I think it is fine, really');
        return;
      }
      completion(res, JSON.stringify({ correct: true, explanation: 'Matches the note; see https://docs.example/rules?key=SECRET-77&lang=en' }));
    });
  });
  afterAll(async () => {
    await judge.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, reasons: string[]) => {
    const project = readRelease(readJsonFiles(join(REPO, 'scenes/sample-house'))).project!;
    const rows = oracleBaseline(project)
      .filter((r) => r.answer === 'no' && r.reason)
      .slice(0, reasons.length)
      .map((r, i) => ({ ...r, reason: reasons[i]!, model: name }));
    const path = join(dir, `${name}.jsonl`);
    writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return path;
  };

  it('counts the verdict, shows ?key=*** where the reply said the key, and withholds RV only where the reply was unreadable', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    await page.keyboard.press('4');
    await page
      .getByTestId('load-prediction-files')
      .setInputFiles([file('quotes-a-key', ['Stairs the wheelchair cannot climb']), file('garbled', ['GARBLED reason'])]);
    await page.getByLabel('Judge', { exact: true }).selectOption('http');
    await page.getByLabel('Judge endpoint').fill(judge.url);
    await page.getByLabel('Judge model').fill('judge');
    await page.getByTestId('run-score').click();
    const quoted = page.locator('[data-testid=score-table] tr[data-model=quotes-a-key]');
    await quoted.waitFor({ timeout: 60_000 });
    // Judged: RV is a number (the verdict "correct" counted), not withheld.
    expect(await quoted.locator('td[data-col=rv]').textContent()).toMatch(/^100\.00/);
    expect(await page.locator('[data-testid=score-table] tr[data-model=garbled] td[data-col=rv]').textContent()).toMatch(/^withheld/);

    await page.getByTestId('records-model').selectOption('quotes-a-key');
    await page.locator('[data-testid=records] tbody tr').first().click();
    const shown = (await page.getByTestId('record-judge').textContent())!;
    expect(shown).toContain('matches the ground-truth notes');
    expect(shown).toContain('?key=***&lang=en');
    expect(await page.content()).not.toContain('SECRET-77');
  });
});
