import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oracleBaseline } from '../../src/core/scoring/baselines.ts';
import { readJsonFiles } from '../../src/cli/files.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { importFolder, studio } from '../support/browser.ts';
import { REPO } from '../support/cli.ts';

const SAMPLE = join(REPO, 'scenes', 'sample-house');
const project = readRelease(readJsonFiles(SAMPLE)).project!;
const oracle = oracleBaseline(project);

/**
 * Issue 23 §3, the labelled side: a navigation question under review shows, per agent, the answer
 * its labels give — the scorer's ground truth (the oracle's answers) — never one "yes" for all.
 */
describe('a navigation question in review answers per agent from the labels', () => {
  const { profile, url } = studio();

  it('shows each agent\'s answer as the labels decide it, "no" where the agent cannot get there', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
    await importFolder(page, SAMPLE);
    await expect.poll(() => page.locator('[data-scene=sample-house]').count()).toBe(1);
    await page.locator('[data-view=qa]').click();
    await page.getByTestId('qa-list').waitFor();
    await page.getByTestId('review-scene-questions').click();
    await page.getByTestId('qa-annotator').fill('Omar');
    await page.getByTestId('mode-review').click();
    let sawNo = false,
      checked = 0;
    for (const row of await page.locator('[data-item-row]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-item-row')!))) {
      await page.locator(`[data-item-row="${row}"]`).click();
      const text = (await page.getByTestId('review-question').textContent())!;
      const truth = oracle.filter((r) => r.question === text.trim());
      if (!truth.length) continue;
      await page.locator('[data-testid=navigation-answers] li').first().waitFor();
      const shown = Object.fromEntries(
        await page
          .locator('[data-testid=navigation-answers] li')
          .evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-agent'), li.getAttribute('data-answer')])),
      );
      const expected = Object.fromEntries(truth.map((r) => [r.agent, r.answer]));
      expect(shown, text).toEqual(expected);
      checked++;
      sawNo ||= Object.values(shown).includes('no') && Object.values(shown).includes('yes');
    }
    expect(checked).toBe(new Set(oracle.map((r) => r.question)).size);
    expect(sawNo, 'some question is "yes" for one agent and "no" for another').toBe(true);
  });
});
