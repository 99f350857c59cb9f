import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../support/cli.ts';

/**
 * The dependency direction and the state rules are lint rules (eslint.config.js). A file's last
 * matching config block decides a rule, and one added block once replaced every layer's import rule
 * with its own for a whole stop without anyone noticing: here each rule is tried on a probe file in
 * the folder it guards, and must refuse what it exists to refuse (and let the allowed through).
 */
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: REPO });
}, 60_000);

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${REPO}/${filePath}` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}
const importing = (spec: string) => `import { x } from '${spec}';\nexport const y = x;\n`;

describe('the layer rules', () => {
  it.each([
    ['src/core/probe.ts', '../state/store.ts', 'core imports nothing of ours outside core'],
    ['src/engine/probe.ts', '../persistence/db.ts', 'formats and engine import only core'],
    ['src/formats/probe.ts', '../features/scene/state/graphCommands.ts', 'formats and engine import only core'],
    ['src/state/probe.ts', '../features/tasks/state/taskGen.ts', 'names no feature'],
    ['src/features/tasks/state/probe.ts', '../../../viewport/Workspace.tsx', 'state imports only core'],
    ['src/ui/probe.ts', '../features/qa/state/qaItems.ts', 'The shared layers name no feature'],
    ['src/viewport/probe.tsx', '../features/labelling/state/queueSelectors.ts', 'The shared layers name no feature'],
    ['src/persistence/probe.ts', '../app/main.tsx', 'The shared layers name no feature'],
    ['src/features/qa/ui/probe.tsx', '../app/qaFiles.ts', 'Panels never use a controller'],
    ['src/features/qa/ui/probe.tsx', '../../../services/meshManager.ts', 'Panels never use a controller'],
    ['src/services/probe.ts', '../features/scene/state/graphCommands.ts', 'A service is shared by features'],
    ['src/shell/probe.tsx', '../services/meshManager.ts', 'The shell shows the features'],
    ['src/cli/probe.ts', '../state/store.ts', 'The command line runs in Node over core and formats only'],
    ['src/core/probe.ts', '../build/changelog.mjs', 'src/core imports nothing of ours'],
  ])('%s may not import %s', async (file, spec, why) => {
    const found = await problems(file, importing(spec));
    expect(found.join('\n')).toContain(why);
  });

  it.each([
    ['src/features/tasks/state/probe.ts', '../../../state/store.ts'],
    ['src/features/review/state/probe.ts', '../../qa/state/qaItems.ts'],
    ['src/features/qa/ui/probe.tsx', '../../review/ui/ReviewPanel.tsx'],
    ['src/features/qa/app/probe.ts', '../../../services/meshManager.ts'],
    ['src/shell/probe.tsx', '../features/qa/ui/QaView.tsx'],
    ['src/app/probe.ts', '../features/qa/app/qaFiles.ts'],
    ['src/viewport/probe.tsx', '../state/workspaceFeeds.ts'],
  ])('%s may import %s', async (file, spec) => {
    expect(await problems(file, importing(spec))).toEqual([]);
  });
});

describe('the state rules', () => {
  const setsState = 'export const f = (store: { setState: (p: object) => void }) => store.setState({ notice: null });\n';
  it.each(['src/ui/probe.tsx', 'src/viewport/probe.tsx', 'src/features/scoring/ui/probe.tsx'])(
    '%s may not call setState (a named change instead)',
    async (file) => {
      expect((await problems(file, setsState)).join('\n')).toContain('Panels and the 3D view do not set state');
    },
  );

  it('a feature state module may (its named changes are made of it)', async () => {
    expect(await problems('src/features/scoring/state/probe.ts', setsState)).toEqual([]);
  });

  it('no file sets the document by hand, and user text is never HTML', async () => {
    expect(
      (
        await problems('src/features/scoring/state/probe.ts', 'export const f = (s: { setState: (p: object) => void }) => s.setState({ document: {} });\n')
      ).join(),
    ).toContain('named edit');
    expect((await problems('src/ui/probe.tsx', 'export const P = (p: { t: string }) => <p dangerouslySetInnerHTML={{ __html: p.t }} />;\n')).join()).toContain(
      'never as HTML',
    );
  });
});
