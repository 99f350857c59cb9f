import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
