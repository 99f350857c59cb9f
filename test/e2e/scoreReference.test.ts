import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { importFolder, studio } from '../support/browser.ts';
import { REPO, traversa } from '../support/cli.ts';
import { generateResults } from '../support/compatFixtures.ts';

const SAMPLE = join(REPO, 'scenes', 'sample-house');

/**
 * Issue 23 §12: the studio scores under the released scorer's conventions too, with the same
 * figures and files as `traversa score --compat reference` on the same folder, labelled as the
 * released scorer's; paper mode stays the default and keeps its own table.
 */
describe("the released scorer's conventions in the studio (score --compat reference)", () => {
  const { profile, url } = studio();
  const tmp = mkdtempSync(join(tmpdir(), 'traversa-reference-'));
  const results = join(tmp, 'results'),
    out = join(tmp, 'scored');
  let page: Page;

  beforeAll(() => {
    // Two models in the runner's layout, one with files that fail whole; a Traversa JSONL the released scorer does not read.
    for (const [model, broken] of [
      ['model-a', true],
      ['model-b', false],
    ] as const) {
      for (const f of generateResults(SAMPLE, model === 'model-a' ? 3 : 4, { model, broken }).files) {
        mkdirSync(dirname(join(results, f.path)), { recursive: true });
        writeFileSync(join(results, f.path), f.text);
      }
    }
    writeFileSync(join(results, 'extra.jsonl'), '{"scene":"sample-house"}\n');
  });

  const download = async (testId: string) => {
    const d = page.waitForEvent('download');
    await page.getByTestId(testId).click();
    const file = await d;
    return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
  };

  it("gives the command line's table, summaries and records, file for file", async () => {
    const cli = await traversa('score', '--gt', SAMPLE, '--pred', results, '--out', out, '--compat', 'reference');
    expect(cli.code, cli.stderr).toBe(0);

    page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    await importFolder(page, SAMPLE);
    await page.keyboard.press('4');
    await page.getByTestId('load-predictions').setInputFiles(results);
    await expect.poll(() => page.getByTestId('prediction-files').textContent()).toMatch(/files from results/);
    await page.getByLabel('Scoring conventions').selectOption('reference');
    // An LLM judge has nothing to judge here (every reason is dropped); weights and intervals do not apply.
    expect(await page.locator('select[aria-label=Judge] option[value=http]').isDisabled()).toBe(true);
    expect(await page.getByLabel('weight f1').count()).toBe(0);
    await page.getByTestId('run-score').click();
    const table = page.getByTestId('reference-table');
    await table.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('score-table').count()).toBe(0);
    expect(await table.textContent()).toContain('The released scorer’s conventions');

    // Every row of the command line's table, cell for cell.
    const cliRows = cli.stdout
      .split('\n')
      .filter((l) => /^(model-a|model-b|all 2 models, pooled) /.test(l))
      .map((l) => l.trim().split(/\s{2,}/));
    expect(cliRows.map((r) => r[0])).toEqual(['model-a', 'model-b', 'all 2 models, pooled']);
    for (const row of cliRows) {
      const cells = await table.locator(`tr[data-model="${row[0]}"] > *`).allTextContents();
      expect(cells).toEqual(row);
    }
    expect(await page.getByTestId('reference-not-read').textContent()).toContain('extra.jsonl');
    expect(await page.getByTestId('reference-unreadable').textContent()).toContain('model-a/broken/truncated.json');

    // The files, byte for byte but for where the results root is (the command line names it by its absolute path).
    const local = (text: string) =>
      text
        .split(JSON.stringify(results).slice(1, -1))
        .join('results')
        .split(JSON.stringify(SAMPLE).slice(1, -1))
        .join('ground_truth')
        .split(JSON.stringify(out).slice(1, -1))
        .join('results');
    for (const name of ['scored_per_record.jsonl', 'scored_summary.json', 'scored_model-a_summary.json', 'scored_model-b_summary.json']) {
      const file = await download(`reference-file-${name}`);
      expect(file.name.endsWith(name)).toBe(true);
      expect(file.text, name).toBe(local(readFileSync(join(out, name), 'utf8')));
    }
    const csv = await download('reference-csv');
    expect(csv.text.split('\r\n')[0]).toBe('results,records,ok,failed,format errors,F1,PV,RTA,RV,CapNav');
    await page.screenshot({ path: join(tmp, 'reference.png') });
  });

  it('paper mode is the default and comes back with its own table', async () => {
    await page.getByLabel('Scoring conventions').selectOption('paper');
    await page.getByTestId('run-score').click();
    await page.locator('[data-testid=score-table] tr[data-model=model-a]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('reference-table').count()).toBe(0);
    expect(await page.getByLabel('weight f1').count()).toBe(1);
  });
});
