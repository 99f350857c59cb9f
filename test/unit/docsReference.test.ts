import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referencePages } from '../../src/build/reference.ts';
import { REPO } from '../support/cli.ts';

// docs/reference/ is generated from the code (the command registry, the CLI's usage): a command, a
// key or an option changed without `npm run docs:reference` leaves the docs saying something else.
describe('the reference pages', () => {
  for (const page of referencePages()) {
    it(`${page.path} is what the code says (else run npm run docs:reference)`, () => {
      expect(readFileSync(join(REPO, page.path), 'utf8')).toBe(page.text);
    });
  }

  it('list every key of the registry, the tour and the drive included', () => {
    const keys = referencePages()[0]!.text;
    for (const line of ['| `Shift+R` | Record the automatic tour video', '| `G` | Drive the agent', '| `Ctrl/⌘+Z` | Undo |']) expect(keys).toContain(line);
  });
});

// Issue 26: code cited a README section and `scoring.md §…` files the repository did not have. Every
// path a source file, a test or a page cites (src/…, test/…, docs/…, a layer-relative `features/…`)
// and every relative link of a page must name a file or folder of the checkout.
describe('what the code and the docs cite', () => {
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' })
    .split('\n')
    // (These tests name paths that are not there on purpose: this file's examples, the lint rules' probe files.)
    .filter(
      (f) =>
        /\.(md|ts|tsx|mjs|js)$/.test(f) &&
        !['test/unit/docsReference.test.ts', 'test/unit/layerRules.test.ts'].includes(f) &&
        !f.startsWith('CHANGELOG') &&
        !f.startsWith('scenes/sample-house/') &&
        existsSync(join(REPO, f)),
    );
  const LAYERS = 'app|ui|state|features|services|persistence|viewport|engine|core|formats|cli|workers|build';
  const cited = new RegExp(
    `(?<![\\w./-])(?:((?:src|test|docs)/[\\w./-]+\\.(?:ts|tsx|mjs|md|css|html))|((?:${LAYERS})/[\\w./-]+\\.(?:ts|tsx|mjs)))(?![\\w])`,
    'g',
  );
  const link = /\]\(((?!https?:|#|mailto:)[^)#\s]+)(?:#[^)]*)?\)/g;

  it('names files that exist', () => {
    const missing: string[] = [];
    for (const f of tracked) {
      const text = readFileSync(join(REPO, f), 'utf8');
      for (const m of text.matchAll(cited)) {
        const path = m[1] ?? `src/${m[2]}`;
        // A URL path in a test (`/src/main.tsx` asked of a dev server) is not a citation.
        if (text[m.index - 1] === '/' || existsSync(join(REPO, path))) continue;
        missing.push(`${f}: ${m[0]}`);
      }
      if (f.endsWith('.md')) for (const m of text.matchAll(link)) if (!existsSync(join(REPO, dirname(f), decodeURI(m[1]!)))) missing.push(`${f}: link ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it('would notice a path that is not there', () => {
    expect('see src/features/drive/app/nowhere.ts'.match(cited)).toEqual(['src/features/drive/app/nowhere.ts']);
    expect('(app/drive.ts)'.match(cited)).toEqual(['app/drive.ts']);
  });
});
