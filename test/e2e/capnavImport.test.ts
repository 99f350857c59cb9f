import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { datasetStats } from '../../src/core/stats.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { readJsonFiles } from '../../src/cli/files.ts';
import { importFolder, studio } from '../support/browser.ts';
import { CAPNAV_DIR, sharedAvailable } from '../support/shared.ts';

const haveRelease = sharedAvailable(CAPNAV_DIR, 'the CapNav import browser tests');

async function statCell(page: Page, key: string): Promise<string> {
  return (await page.locator(`[data-testid=stats-summary] tr[data-stat=${key}] td`).textContent()) ?? '';
}
async function agentCell(page: Page, agent: string, col: string): Promise<string> {
  return (await page.locator(`[data-testid=stats-agents] tr[data-agent=${agent}] td[data-col=${col}]`).textContent()) ?? '';
}

describe.skipIf(!haveRelease)('a reviewer imports the CapNav release in the browser', () => {
  const { profile, url } = studio();
  let expected: ReturnType<typeof datasetStats>;
  beforeAll(() => {
    expected = datasetStats(readRelease(readJsonFiles(CAPNAV_DIR)).project!);
  });

  it('imports the release folder and shows the statistics table', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor(); // first start opens the sample
    await importFolder(page, CAPNAV_DIR);
    expect(await page.getByTestId('import-report').textContent()).toContain('Imported capnav as a new project with 2 problems to fix');
    expect(await statCell(page, 'scenes')).toBe(String(expected.scenes));
    expect(await statCell(page, 'questions')).toBe(String(expected.questions));
    expect(await statCell(page, 'labels')).toContain(`${expected.labels.total} (${expected.labels.traversable} traversable`);
    for (const agent of ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER']) {
      const a = expected.agents[agent]!;
      expect(await agentCell(page, agent, 'labels')).toBe(String(a.labels));
      expect(await agentCell(page, agent, 'feasible_tasks')).toBe(String(a.feasible_tasks));
      expect(await agentCell(page, agent, 'edge_traversable_ratio')).toBe(a.edge_traversable_ratio!.toFixed(2));
    }
    // The import's problems name the file and the place: the typo'd reference in HM3D00003.
    const problems = await page.getByTestId('import-problems').textContent();
    expect(problems).toContain('qa/HM3D00003_QA.json');
    expect(problems).toContain('/9/nodes_involved/end');
    await expect.poll(() => page.getByTestId('storage-status').textContent()).toBe('Saved in this browser');
  });

  it('shows a scene: its graph in the workspace, the unresolved reference, and label coverage per agent', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=HM3D00003]').click();
    await page.getByTestId('workspace').waitFor();
    expect(await page.locator('[data-testid=node-list] [data-node-item]').count()).toBeGreaterThan(5);
    expect(await page.locator('[data-node-label]').count()).toBeGreaterThan(5);
    await page.getByRole('tab', { name: 'Label coverage' }).click();
    expect(await page.locator('[data-testid=label-coverage] tr[data-agent=WHEELCHAIR]').count()).toBe(1);
    await page.getByRole('tab', { name: /Questions/ }).click();
    expect(await page.locator('[data-question="9"] [data-testid=unresolved]').textContent()).toContain('Secondd floor bedroom00');
    // Keyboard: next question, mark it hallucinated, undo.
    await page.keyboard.press(']');
    await page.keyboard.press('h');
    await expect.poll(() => page.locator('[data-question="0"]').getAttribute('class')).toContain('hallucinated');
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.locator('[data-question="0"]').getAttribute('class')).not.toContain('hallucinated');
    await expect.poll(() => page.getByTestId('storage-status').textContent()).toBe('Saved in this browser');
  });

  it('keeps the project after a reload and after the browser is closed and reopened', async () => {
    let page = await profile.page(url());
    await page.reload();
    await page.getByTestId('project-name').filter({ hasText: 'capnav' }).waitFor();
    await page.keyboard.press('1'); // the session remembers the last view; go to the statistics
    await page.getByTestId('stats-summary').waitFor();
    expect(await statCell(page, 'scenes')).toBe('30');
    await profile.close();
    page = await profile.page(url());
    await page.getByTestId('project-name').filter({ hasText: 'capnav' }).waitFor();
    await page.keyboard.press('1');
    await page.getByTestId('stats-summary').waitFor();
    expect(await statCell(page, 'questions')).toBe(String(expected.questions));
  });

  it('exports the project as a release zip that reads back to the same project', async () => {
    const page = await profile.page(url());
    await page.getByTestId('project-name').filter({ hasText: 'capnav' }).waitFor();
    await page.keyboard.press('1');
    await page.getByTestId('stats-summary').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export release' }).click()]);
    // Said where the user is (the statistics view has no notice of its own), until dismissed.
    await expect.poll(() => page.getByTestId('studio-notice').textContent()).toBe(`Exported ${download.suggestedFilename()}.×`);
    await page.getByTestId('studio-notice').getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => page.getByTestId('studio-notice').count()).toBe(0);
    const zip = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
    const files = Object.entries(zip).map(([path, bytes]) => ({ path, text: strFromU8(bytes) }));
    expect(files.filter((f) => f.path.includes('/graphs/')).length).toBe(30);
    const back = readRelease(files);
    expect(back.project).not.toBeNull();
    const got = datasetStats(back.project!);
    expect(JSON.stringify(got, null, 1)).toBe(JSON.stringify(expected, null, 1));
  });

  it('imports loose files dropped on the window', async () => {
    const page = await profile.page(url());
    await page.getByTestId('project-name').filter({ hasText: 'capnav' }).waitFor();
    await page.keyboard.press('1');
    await page.getByTestId('stats-summary').waitFor();
    const scene = 'HM3D00025';
    const files = [`graphs/${scene}-graph.json`, `qa/${scene}_QA.json`, `traverse/${scene}-traverse.json`].map((p) => ({
      name: p.split('/')[1]!,
      text: readFileSync(join(CAPNAV_DIR, p), 'utf8'),
    }));
    await page.evaluate((list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'application/json' }));
      document.querySelector('.app')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
    // A project is open, so the studio asks: a new project, or merged into the open one.
    await page.getByTestId('import-as-new').click();
    await expect.poll(() => statCell(page, 'scenes')).toBe('1');
    expect(await page.getByTestId('import-report').textContent()).toContain('Imported 3 files as a new project');
    // The release is still there, in the project list.
    await page.getByTestId('projects-button').click();
    await page.locator('[data-testid=project-row][data-project=capnav] [data-testid=project-open]').click();
    await expect.poll(() => statCell(page, 'scenes')).toBe('30');
  });
});
