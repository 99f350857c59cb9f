// `npm run bench`: performance targets, measured side by side in one run (timed assertions do not
// belong in the test suite). Runs every section in order; `npm run bench -- <name> …` runs only the
// named ones. A section fails the run (exit code 1) by throwing, e.g. when the two sides of a
// comparison disagree; the remaining sections still run.
import { cpus } from 'node:os';
import { cliBench } from './cli.bench.ts';
import { colliderBench } from './collider.bench.ts';
import { driveBench } from './drive.bench.ts';
import { meshBench } from './mesh.bench.ts';
import { navmeshBench } from './navmesh.bench.ts';
import { qaAnswersBench } from './qaAnswers.bench.ts';
import { qaImportBench } from './qaImport.bench.ts';
import { scoreBench } from './score.bench.ts';
import { storageBench } from './storage.bench.ts';
import { studioLoadBench } from './studioLoad.bench.ts';
import { teamBench } from './team.bench.ts';
import { tourBench } from './tour.bench.ts';
import { worklistBench } from './worklist.bench.ts';

export interface BenchSection {
  /** Short name, used to select the section on the command line. */
  name: string;
  title: string;
  run(): void | Promise<void>;
}

const sections: BenchSection[] = [
  worklistBench,
  cliBench,
  meshBench,
  studioLoadBench,
  navmeshBench,
  colliderBench,
  driveBench,
  scoreBench,
  qaAnswersBench,
  qaImportBench,
  storageBench,
  tourBench,
  teamBench,
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !sections.some((s) => s.name === w));
if (unknown.length) {
  console.error(`unknown bench section(s): ${unknown.join(', ')}; known: ${sections.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const selected = wanted.length ? sections.filter((s) => wanted.includes(s.name)) : sections;

const cpu = cpus();
console.log(
  `Traversa benchmarks: node ${process.version}, ${process.platform}/${process.arch}, ${cpu.length} CPU(s)${cpu[0] ? ` (${cpu[0].model.trim()})` : ''}`,
);

const failed: string[] = [];
const started = performance.now();
for (const [i, section] of selected.entries()) {
  const heading = `[${i + 1}/${selected.length}] ${section.name}: ${section.title}`;
  console.log(`\n${'='.repeat(heading.length)}\n${heading}\n${'='.repeat(heading.length)}\n`);
  const t0 = performance.now();
  try {
    await section.run();
    console.log(`\n(${section.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (err) {
    failed.push(section.name);
    console.error(`\nFAILED ${section.name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
}

const total = `${((performance.now() - started) / 1000).toFixed(1)} s`;
if (failed.length) {
  console.error(`\nbench FAILED (${failed.join(', ')}) after ${total}`);
  process.exitCode = 1;
} else console.log(`\nbench done: ${selected.length} section(s) in ${total}`);
