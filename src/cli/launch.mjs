// Starts the command line fast: runs a bundle of src/cli/main.ts, rebuilt with esbuild only when
// a source file is newer than it (a cold build takes ~0.3 s; a warm start skips TypeScript entirely).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(src, '..');
// One bundle per checkout: worktrees that share a node_modules (a link to one folder) must not run each other's code.
const bundle = join(root, 'node_modules', '.cache', 'traversa-cli', createHash('sha256').update(src).digest('hex').slice(0, 12), 'main.mjs');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

const stale = !existsSync(bundle) || ['core', 'formats', 'engine', 'cli'].some((d) => newestSource(join(src, d)) > statSync(bundle).mtimeMs);
if (stale) {
  const { build } = await import('esbuild');
  // Build beside the bundle and rename: commands started together never read a half-written file.
  mkdirSync(dirname(bundle), { recursive: true });
  const tmp = `${bundle}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(src, 'cli', 'main.ts')], outfile: tmp, bundle: true, platform: 'node', format: 'esm',
    target: 'node20', packages: 'external', logLevel: 'warning', sourcemap: 'inline',
  });
  renameSync(tmp, bundle);
}
await import(pathToFileURL(bundle).href);
