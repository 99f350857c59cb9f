import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { REPO } from '../support/cli.ts';
import { LARGE_FILE } from '../../scenes/generate.ts';

/** The ~1 M-triangle sample house the benches compare against, generated when absent; its path. */
export function largeSample(): string {
  if (!existsSync(LARGE_FILE)) {
    console.log('Generating the large sample (npx tsx scenes/generate.ts --large)…');
    execFileSync('npx', ['tsx', 'scenes/generate.ts', '--large'], { cwd: REPO, stdio: 'inherit' });
  }
  return LARGE_FILE;
}
