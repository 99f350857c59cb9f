// The score section's whole-process part: `score --compat reference` and paper mode run as a user
// runs them, `node <the built CLI bundle> score …` (Node's start included, npm not), on the released
// layout at its full size — 20 models × 45 scenes × 5 agents = 4,500 result files, ~47,000 records —
// generated from the shared release (45 scenes: its 30 and 15 renamed copies). Target (issue 13):
// the compat run under 0.7 s, at least 20× faster than the released Python scorer's 13.7–16 s on
// this workload on these machines; a missed target fails the section.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliBundle } from '../../src/cli/bundle.mjs';
import { writeReleasedLayout } from '../support/compatFixtures.ts';
import { writeVariedLayout } from '../support/variedLayout.ts';
import { RELEASED_SCORER } from '../support/releasedScorer.ts';
import { scaledRelease } from '../support/scaledRelease.ts';
import { median } from './best.ts';

const TARGET_MS = 700;
const PYTHON_REPORTED = '13.7–16 s';
const RUNS = 5;

/**
 * The environment without NODE_EXTRA_CA_CERTS: Node reads and parses that certificate bundle at
 * every start, before any of the command's code runs (~40 ms on these machines, whose environment
 * sets it). Used only for the runs printed beside the measured ones, to show that share.
 */
const EXTRA_CA = process.env.NODE_EXTRA_CA_CERTS;
const withoutExtraCa = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
};

/** Wall time of one whole command, spawn to exit. */
function timed(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20, env });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
const rate = (records: number, ms: number) =>
  `${Math.round(records / (ms / 1000))
    .toLocaleString('en-US')
    .padStart(8)} records/s`;

/** Runs both modes on the generated tree; returns what missed its target (empty when all is met). */
export async function wholeProcess(shared: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'traversa-score-bench-'));
  try {
    const release = scaledRelease(shared, 45, join(dir, 'release')).dir;
    const results = join(dir, 'results');
    const tree = writeReleasedLayout(release, results, 20);
    console.log(
      `released layout: ${tree.files.toLocaleString('en-US')} result files, ${tree.records.toLocaleString('en-US')} records (20 models × 45 scenes × 5 agents)`,
    );
    const bundle = await cliBundle();
    const missed = measure(bundle, release, results, tree.records, dir);
    // The same predictions as other runners and models write them: other layouts, messier content.
    const varied = join(dir, 'varied');
    writeVariedLayout(release, results, varied);
    console.log(
      'the same records in other layouts (compact; 4 spaces, CRLF, \\/; tabs, \\u escapes; keys reordered) and as models write them (names re-cased, cut, misspelt at random; paths repeated; "maybe", "", "TRUE"):',
    );
    return [...missed, ...measure(bundle, release, varied, tree.records, dir, 'varied')];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function measure(bundle: string, release: string, results: string, records: number, dir: string, tag = 'clean'): string[] {
  const compat = ['score', '--gt', release, '--pred', results, '--out', join(dir, `compat-${tag}`), '--compat', 'reference'];
  const paper = ['score', '--gt', release, '--pred', results, '--out', join(dir, `paper-${tag}`)];
  timed([bundle, 'help']); // the file cache warm, as for any command after the first
  const compatMs: number[] = [],
    paperMs: number[] = [];
  // Interleaved, so both modes meet the machine in the same state.
  for (let i = 0; i < RUNS; i++) {
    compatMs.push(timed([bundle, ...compat]));
    paperMs.push(timed([bundle, ...paper]));
  }
  const bare: number[] = [],
    bareNoCa: number[] = [],
    compatNoCa: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(timed(['-e', '0']));
    if (EXTRA_CA) {
      bareNoCa.push(timed(['-e', '0'], withoutExtraCa()));
      compatNoCa.push(timed([bundle, ...compat], withoutExtraCa()));
    }
  }
  const c = median(compatMs),
    p = median(paperMs);
  console.log(`whole process, median of ${RUNS} (min), \`node <bundle> score …\`:`);
  console.log(`  node -e 0 (a bare Node start)        ${median(bare).toFixed(0).padStart(6)} ms`);
  if (EXTRA_CA) {
    console.log(
      `    of which reading NODE_EXTRA_CA_CERTS (${EXTRA_CA}, set by this machine's environment): ${(median(bare) - median(bareNoCa)).toFixed(0)} ms; without it ${median(bareNoCa).toFixed(0)} ms`,
    );
  }
  console.log(
    `  score --compat reference             ${c.toFixed(0).padStart(6)} ms (${Math.min(...compatMs).toFixed(0)})  ${rate(records, c)}   target < ${TARGET_MS} ms: ${c < TARGET_MS ? 'met' : 'MISSED'}`,
  );
  if (EXTRA_CA)
    console.log(
      `    the same without NODE_EXTRA_CA_CERTS ${median(compatNoCa).toFixed(0).padStart(6)} ms (${Math.min(...compatNoCa).toFixed(0)})   (for comparison only: the target is judged on the run above)`,
    );
  console.log(`  score (paper mode, rule judge)       ${p.toFixed(0).padStart(6)} ms (${Math.min(...paperMs).toFixed(0)})  ${rate(records, p)}`);
  console.log(
    `  output: scored_per_record.jsonl ${sha(join(dir, `compat-${tag}`, 'scored_per_record.jsonl'))}…, scored_summary.json ${sha(join(dir, `compat-${tag}`, 'scored_summary.json'))}… (sha-256)`,
  );
  if (RELEASED_SCORER) {
    const t0 = performance.now();
    const py = spawnSync('python3', [RELEASED_SCORER], {
      env: { ...process.env, CAPNAV_RESULT_ROOT: results, CAPNAV_GT_ROOT: release, OPENAI_API_KEY: 'unused' },
      encoding: 'utf8',
    });
    const pyMs = performance.now() - t0;
    console.log(
      `  released Python scorer (TRAVERSA_RELEASED_SCORER)  ${(pyMs / 1000).toFixed(1)} s${py.status === 0 ? '' : ' (failed: ' + py.stderr.trim().split('\n').pop() + ')'}   compat is ${(pyMs / c).toFixed(0)}× faster`,
    );
  } else {
    console.log(
      `  released Python scorer (reported for this workload): ${PYTHON_REPORTED}   compat is ${(13_700 / c).toFixed(0)}–${(16_000 / c).toFixed(0)}× faster`,
    );
  }
  return c < TARGET_MS ? [] : [`score --compat reference (${tag}) took ${c.toFixed(0)} ms (median of ${RUNS}), target < ${TARGET_MS} ms`];
}
