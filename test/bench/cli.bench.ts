import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { releaseFiles, writeReleaseDir, rawEdge, rawNode, rawQuestion, type RawEdgeJson } from '../support/releaseBuilder.ts';
import { median } from './best.ts';
import type { BenchSection } from './run.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** A release with one scene: a k×k grid and one corner-to-corner question. */
function gridRelease(k: number): string {
  const id = (r: number, c: number) => `node_${r * k + c}`;
  const nodes = [];
  const edges: RawEdgeJson[] = [];
  for (let r = 0; r < k; r++)
    for (let c = 0; c < k; c++) {
      nodes.push(rawNode(id(r, c), `Cell ${r},${c}`));
      if (c + 1 < k) edges.push(rawEdge(`edge_${edges.length}`, id(r, c), id(r, c + 1)));
      if (r + 1 < k) edges.push(rawEdge(`edge_${edges.length}`, id(r, c), id(r + 1, c)));
    }
  const qa = [rawQuestion('Can [Agent] move from one corner to the other?', id(0, 0), id(k - 1, k - 1))];
  return writeReleaseDir(releaseFiles([{ id: `GRID${k}`, graph: { nodes, edges }, qa, traverse: { _hallucinatedQuestions: [] } }]));
}

/**
 * One run of a whole command from the repository, as a user waits for it: wall time from spawn to
 * exit (start-up included) and what it printed. With `timeoutMs`, a run past it is killed and
 * null is returned; a command that fails throws.
 */
export function timeCommand(cmd: string, args: string[], timeoutMs?: number): { ms: number; stdout: string } | null {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20, ...(timeoutMs ? { timeout: timeoutMs } : {}) });
  const ms = performance.now() - t0;
  if (timeoutMs && r.signal && ms >= timeoutMs) return null;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** Wall time of a whole command, as a user waits for it (median of `runs`). */
function wall(cmd: string, args: string[], runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(timeCommand(cmd, args)!.ms);
  return median(times);
}

export const cliBench: BenchSection = {
  name: 'cli',
  title: '`plan` on a 30×30 grid (900 nodes), end to end, next to a bare Node start',
  run() {
    const dir = gridRelease(30);
    try {
      wall(process.execPath, ['src/cli/launch.mjs', 'help'], 1); // warm the CLI bundle
      const bare = wall(process.execPath, ['-e', '0']);
      const plan = wall(process.execPath, ['src/cli/launch.mjs', 'plan', dir, '--json']);
      const viaNpm = wall('npm', ['run', '-s', 'cli', '--', 'plan', dir, '--json']);
      console.log(`node -e 0 (bare Node start)               ${bare.toFixed(0).padStart(5)} ms`);
      console.log(`node src/cli/launch.mjs plan <grid> --json ${plan.toFixed(0).padStart(5)} ms   (${(plan / bare).toFixed(1)}× a bare start)`);
      console.log(`npm run -s cli -- plan <grid> --json       ${viaNpm.toFixed(0).padStart(5)} ms   (target: well under 1000 ms)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
