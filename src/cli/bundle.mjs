// The command line's bundle: src/cli/main.ts built with esbuild into node_modules/.cache, rebuilt
// only when a source file changed (a cold build takes ~0.3 s; a warm start skips TypeScript
// entirely). Split at each `await import()`, so a command loads only its own code and libraries.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestChange } from './newestChange.mjs';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(src, '..');
// One cache per checkout: worktrees that share a node_modules (a link to one folder) must not run each other's code.
const cache = join(root, 'node_modules', '.cache', 'traversa-cli', createHash('sha256').update(src).digest('hex').slice(0, 12));
/** Older builds are removed once this old (a command still running may load its chunks until then). */
const KEEP_MS = 10 * 60_000;

const isTypeScript = (name) => /\.tsx?$/.test(name);

/** The bundle's entry file for the sources as they are now, built first if needed. */
export async function cliBundle() {
  const stamp = String(Math.ceil(Math.max(...['core', 'formats', 'engine', 'cli'].map((d) => newestChange(join(src, d), isTypeScript)))));
  const dir = join(cache, stamp);
  const entry = join(dir, 'main.mjs');
  if (existsSync(entry)) return entry;
  const { build } = await import('esbuild');
  // Build beside the final folder and rename: commands started together never read a half-written bundle.
  mkdirSync(cache, { recursive: true });
  const tmp = `${dir}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(src, 'cli', 'main.ts')],
    outdir: tmp,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    sourcemap: 'linked',
  });
  try {
    renameSync(tmp, dir);
  } catch (e) {
    // Another command built the same sources first: use its bundle.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(entry)) throw e;
  }
  for (const old of readdirSync(cache)) {
    if (old === basename(dir)) continue;
    const full = join(cache, old);
    try {
      if (Date.now() - statSync(full).mtimeMs > KEEP_MS) rmSync(full, { recursive: true, force: true });
    } catch {
      /* another command removed it */
    }
  }
  return entry;
}
