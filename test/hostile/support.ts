import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { emptyProject } from '../../src/core/project.ts';
import { createWrittenItem } from '../../src/core/vqa/items.ts';
import { exportQaBundle } from '../../src/formats/qa/bundle.ts';
import { houseScene, releaseFiles, type SceneSpec } from '../support/releaseBuilder.ts';
import { navGraph, sceneOf } from '../support/sceneBuilder.ts';
import { REPO, traversaWith } from '../support/cli.ts';

/** No command may take longer than this on a hostile input; the child is killed past it. */
export const LIMIT_MS = 20_000;

export type Run = Awaited<ReturnType<typeof traversaWith>>;
export const run = (...args: string[]): Promise<Run> => traversaWith({ limitMs: LIMIT_MS }, ...args);

/**
 * Permission faults do not happen to root: as root, the command runs as `nobody` instead (the
 * checkout and the CLI bundle are world-readable; build the bundle first with `run('help')`).
 */
export const asUnprivileged = (): { uid?: number; gid?: number } => (process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {});
export const runUnprivileged = (...args: string[]): Promise<Run> => traversaWith({ limitMs: LIMIT_MS, ...asUnprivileged() }, ...args);

/**
 * Why the permission cases cannot run here, or null when they can. As root they run as `nobody`,
 * who must be able to reach the checkout: a clone in a private folder (`mktemp -d`, mode 0700, as
 * home folders often are) is out of its reach. Build the bundle first (`run('help')`).
 */
export async function unprivilegedBlocked(): Promise<string | null> {
  const as = asUnprivileged();
  if (as.uid === undefined) return null;
  const r = await runUnprivileged('help');
  if (r.code === 0) return null;
  const lines = r.stderr.split('\n').map((l) => l.trim());
  const why = lines.find((l) => /error|denied|EACCES/i.test(l)) ?? lines.find((l) => l !== '') ?? `exit ${r.code}`;
  return `the unprivileged user "nobody" cannot run the command line from ${REPO} (a private folder?): ${why.trim().slice(0, 200)}`;
}

/** Temporary folders for one test file, readable by `nobody` too, removed by `cleanUp`. */
export function tempDirs() {
  const made: string[] = [];
  return {
    make(prefix = 'traversa-hostile-'): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      chmodSync(dir, 0o755);
      made.push(dir);
      return dir;
    },
    cleanUp(): void {
      for (const dir of made) {
        chmodTree(dir);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Give back every permission a test took away from a folder, so it can be removed. */
function chmodTree(dir: string): void {
  try {
    chmodSync(dir, 0o755);
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) chmodTree(join(dir, e.name));
  } catch {
    /* gone already */
  }
}

/** Write `files` (paths relative to `root`, text or bytes) under `root`, making folders. */
export function writeTree(root: string, files: readonly { path: string; text: string | Uint8Array }[]): string {
  for (const f of files) {
    mkdirSync(dirname(join(root, f.path)), { recursive: true });
    writeFileSync(join(root, f.path), f.text);
  }
  return root;
}

/** A good one-scene release under `root` (the house of the release builder). */
export const writeHouse = (root: string, ...scenes: SceneSpec[]): string => writeTree(root, releaseFiles(scenes.length ? scenes : [houseScene()]));

/** An exported QA bundle under `root` with one accepted yes/no item, `qa_1`, asking `question`. */
export function writeQaBundle(root: string, question = 'Is the kitchen lit?'): string {
  const p = emptyProject('House QA');
  p.scenes.push(sceneOf({ id: 'house', graph: navGraph(['hall-kitchen']) }));
  p.qa.items.push({
    ...createWrittenItem([], {
      sceneId: 'house',
      author: 'dee',
      createdAt: '2026-05-01T10:00:00.000Z',
      question,
      answer: { kind: 'yesno', correct: true },
      category: { capability: 'semantic' },
    }),
    status: 'accepted',
  });
  const bundle = exportQaBundle(p, { createdAt: '2026-05-01T10:00:00.000Z', appVersion: '0.1.0' });
  if (!bundle.ok) throw new Error('the bundle should export');
  return writeTree(root, bundle.files);
}

/**
 * The failure every hostile input must end in: within the limit, the documented exit code, nothing
 * on stdout, and on stderr one `traversa: ` line naming the file and the reason — no stack trace.
 */
export function expectOneLineError(r: Run, code: number, ...mentions: string[]): void {
  expect(r.timedOut, 'the command hung and was killed').toBe(false);
  expect(r.stdout).toBe('');
  expectNoTrace(r);
  const lines = r.stderr
    .trimEnd()
    .split('\n')
    .filter((l) => l.startsWith('traversa: '));
  expect(lines, r.stderr).toHaveLength(1);
  for (const m of mentions) expect(lines[0]).toContain(m);
  expect(r.code, r.stderr).toBe(code);
}

/** No Node stack trace nor internal error text anywhere in what was printed. */
export function expectNoTrace(r: Run): void {
  for (const text of [r.stdout, r.stderr]) {
    expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(text).not.toMatch(/node:internal|RangeError|TypeError|Error: E[A-Z]+:/);
  }
}
