// Reference pages generated from the code (`npm run docs:reference`): the command line's usage and
// the keyboard shortcuts by view, from the one command registry. A unit test fails when the pages in
// docs/reference/ no longer match what this writes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCommands } from '../app/commandRegistry.ts';
import type { TourRunner } from '../features/tour/app/tour.ts';
import { USAGE } from '../cli/usage.ts';
import type { Command } from '../state/commands.ts';
import { createStudioStore, type View } from '../state/store.ts';

const VIEWS: { view: View; title: string }[] = [
  { view: 'overview', title: 'Statistics' },
  { view: 'scene', title: 'Scene (editing the graph)' },
  { view: 'label', title: 'Label (the queue)' },
  { view: 'score', title: 'Score' },
  { view: 'qa', title: 'QA (writing and reviewing items)' },
  { view: 'problems', title: 'Problems' },
];

const nothing = () => {};

/** The studio's commands, built as the app builds them (their outside-world actions are not run here). */
function studioCommands(): Command[] {
  return buildCommands({
    store: createStudioStore(),
    flush: async () => {},
    tell: nothing,
    drive: { auto: async () => {}, spawn: nothing, replay: nothing, step: nothing },
    project: { importFolder: nothing, openSample: nothing, exportRelease: nothing, exportBundle: nothing },
    // The recorder is only used when a tour command runs; listing them needs none.
    tour: { runner: {} as TourRunner, confirmReplace: async () => false },
  });
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

function keysPage(commands: readonly Command[]): string {
  const keyed = commands.filter((c) => c.shortcut);
  const table = (list: readonly Command[]) =>
    ['| key | what it does |', '| --- | --- |', ...list.map((c) => `| \`${cell(c.shortcut!.replace('Mod', 'Ctrl/⌘'))}\` | ${cell(c.label)} |`)].join('\n');
  const sections = [
    `## Everywhere\n\n${table(keyed.filter((c) => !c.views))}`,
    ...VIEWS.map((v) => ({ ...v, list: keyed.filter((c) => c.views?.includes(v.view)) }))
      .filter((v) => v.list.length > 0)
      .map((v) => `## ${v.title}\n\n${table(v.list)}`),
  ];
  return `# Keyboard shortcuts\n\nGenerated from the command registry by \`npm run docs:reference\`; the studio's \`?\` shows the same list.\n\n${sections.join('\n\n')}\n`;
}

const cliPage = (): string =>
  `# The command line\n\nGenerated from the usage text by \`npm run docs:reference\`; \`npm run cli -- help\` prints the same.\n\n\`\`\`text\n${USAGE.trimEnd()}\n\`\`\`\n`;

/** The reference pages, as docs/reference/ should hold them. */
export function referencePages(): { path: string; text: string }[] {
  return [
    { path: 'docs/reference/keys.md', text: keysPage(studioCommands()) },
    { path: 'docs/reference/cli.md', text: cliPage() },
  ];
}

if (process.argv[1]?.endsWith('reference.ts')) {
  for (const page of referencePages()) {
    writeFileSync(join(process.cwd(), page.path), page.text);
    console.log(`wrote ${page.path}`);
  }
}
