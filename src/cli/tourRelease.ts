import { statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathPartProblem } from '../core/pathNames.ts';
import { formatProblem } from '../core/problems.ts';
import { filesDigest, inShard, shardName, WHOLE, type Shard } from '../core/shard.ts';
import {
  TOUR_SHARD_FILE,
  TOURS_FILE,
  toursDocument,
  tourShardDocument,
  type FailedScene,
  type TouredScene,
  type TourRun,
  type UntouredScene,
  type UntouredWhy,
} from '../core/tour/tours.ts';
import { FRAME_BUDGETS, type FrameBudget } from '../core/tour/types.ts';
import { classify } from '../formats/capnav/files.ts';
import { readRelease } from '../formats/capnav/read.ts';
import { tourPath } from '../formats/capnav/tourFiles.ts';
import { CliError, InputError, makeFolder, readJsonFiles, statInput, writeOutput } from './files.ts';
import { shardOption, upAxisOf } from './options.ts';
import { fileDigest, sceneScan, scanFiles, SCAN_EXTENSIONS } from './sceneScans.ts';
import { builtApp, repoRoot, tourSettings, type TourArgs } from './tourSetup.ts';
import { checkChromium, openTourBrowser, type TourBrowser } from './tourBrowser.ts';

/**
 * `tour --gt <release-dir> --scans <dir> --out <dir> [--shard i/N] [--frames 16,32,64,1fps] …`: the
 * touring video of every scene of a release whose scan `<scans>/<SCENE>.glb|.gltf|.ply|.obj` is
 * there, in the release layout under --out (videos/<SCENE>.mp4 and .poses.json; with --frames the
 * frame sets frames/<SCENE>/<budget>/, the frames the studio keeps, as JPEGs of the rendered
 * frames), all in one Chromium. Unsharded it writes tours.json; shard i/N tours the scenes at
 * places i, i+N, … of the release's order and writes shard.json, which `merge` turns into the
 * same tours.json (core/tour/tours.ts). A scene without a scan is listed, not an error; one whose
 * tour fails is listed with why and the command exits 1 once the others are done.
 */

export type TourReleaseArgs = TourArgs;

/** `--frames 16,32,64,1fps`: the budgets in FRAME_BUDGETS order; absent, none. */
export function frameBudgets(v: string | undefined): FrameBudget[] {
  if (v === undefined) return [];
  const asked = v.split(',').map((b) => b.trim());
  const bad = asked.find((b) => !(FRAME_BUDGETS as readonly string[]).includes(b));
  if (bad !== undefined) throw new CliError(`--frames takes a comma list of ${FRAME_BUDGETS.join(', ')} (any of them), not "${bad}"`);
  return FRAME_BUDGETS.filter((b) => asked.includes(b));
}

interface Planned {
  scene: string;
  /** The scan, or why the scene is not toured. */
  scan: string | null;
  why?: UntouredWhy;
}

/** The release's scenes in order with their scans, and the run they make (checksums and settings). */
function planRun(a: TourReleaseArgs & { gt: string; scans: string }, budgets: FrameBudget[]) {
  const up = upAxisOf(a.up);
  const settings = tourSettings(a);
  if (!statInput(a.scans, 'scans folder').isDirectory())
    throw new InputError(`${a.scans}: --scans is the folder holding <SCENE>.glb (or .gltf, .ply, .obj) for each scene`);
  const files = readJsonFiles(a.gt);
  const { project, problems } = readRelease(files, basename(resolve(a.gt)));
  if (!project) {
    for (const p of problems.filter((q) => q.severity === 'fatal')) process.stderr.write(formatProblem(p) + '\n');
    throw new InputError(`${a.gt} cannot be read as a CapNav release (run "validate" for every problem)`);
  }
  const graphErrors = new Map<string, string[]>();
  for (const p of problems) {
    const kind = classify(p.file);
    if (p.severity !== 'warning' && kind.kind === 'graph') graphErrors.set(kind.scene, [...(graphErrors.get(kind.scene) ?? []), formatProblem(p)]);
  }
  const scenes: Planned[] = project.scenes.map((s) => {
    const bad = pathPartProblem(s.id);
    if (bad) throw new InputError(`${a.gt}: the scene id ${JSON.stringify(s.id)} ${bad}: it cannot name the scene's video`);
    const scan = sceneScan(a.scans, s.id);
    const why: UntouredWhy | undefined = !scan ? 'no scan' : graphErrors.has(s.id) ? 'graph errors' : s.graph.nodes.length === 0 ? 'no nodes' : undefined;
    return { scene: s.id, scan, ...(why ? { why } : {}) };
  });
  const run: TourRun = {
    graphs: filesDigest(files.filter((f) => classify(f.path).kind === 'graph')),
    scans: filesDigest(scenes.map((s) => ({ path: s.scene, text: s.scan ? `${basename(s.scan)} ${statSync(s.scan).size}` : '' }))),
    settings: { ...settings, up, frames: budgets },
  };
  return { project, scenes, run, graphErrors };
}

/** Tour every scene of this shard of the release; write the files, and tours.json or shard.json. */
export async function tourReleaseCommand(
  a: TourReleaseArgs,
  log: (line: string) => void = (l) => process.stderr.write(`tour: ${l}\n`),
): Promise<{ text: string; code: number }> {
  if (a.mesh !== undefined || a.graph !== undefined)
    throw new CliError('give --mesh and --graph (one scan, --out <video>) or --gt and --scans (a release, --out <dir>), not both');
  if (!a.gt) throw new CliError('tour of a release needs --gt <release-dir> (its scenes and graphs)');
  if (!a.scans) throw new CliError(`tour of a release needs --scans <dir> holding <SCENE>${SCAN_EXTENSIONS.join('|')} for each scene`);
  if (!a.out) throw new CliError('tour of a release needs --out <dir> (videos/ and frames/ in the release layout)');
  const shard: Shard | undefined = shardOption(a.shard);
  const budgets = frameBudgets(a.frames);
  const { project, scenes, run, graphErrors } = planRun({ ...a, gt: a.gt, scans: a.scans }, budgets);
  const order = project.scenes.map((s) => s.id);
  const mine = scenes.filter((_, i) => inShard(i, shard ?? WHOLE));
  const todo = mine.filter((s) => !s.why);
  const missing: UntouredScene[] = mine.filter((s) => s.why).map((s) => ({ scene: s.scene, why: s.why! }));
  for (const m of missing) {
    if (m.why === 'graph errors') for (const line of graphErrors.get(m.scene)!) process.stderr.write(line + '\n');
    log(
      `${m.scene}: not toured (${m.why === 'no scan' ? `no scan: no ${m.scene}${SCAN_EXTENSIONS.join(`, ${m.scene}`)} in ${a.scans}` : m.why === 'graph errors' ? 'its graph has errors, listed above' : 'its graph has no nodes'})`,
    );
  }
  const toured: TouredScene[] = [];
  const failed: FailedScene[] = [];
  const t0 = performance.now();
  let browser: TourBrowser | null = null;
  makeFolder(a.out);
  if (todo.length) {
    checkChromium();
    browser = await openTourBrowser(builtApp(repoRoot(), log));
  }
  const startMs = performance.now() - t0;
  try {
    for (const [k, s] of todo.entries()) {
      const say = (line: string) => log(`[${k + 1}/${todo.length}] ${s.scene}: ${line}`);
      const nodes = project.scenes.find((x) => x.id === s.scene)!.graph.nodes;
      try {
        toured.push(await tourScene(browser!, s.scene, s.scan!, nodes, run, a.out, say));
      } catch (e) {
        // Listed, and the shard goes on: one scan that cannot be toured does not lose the others' tours.
        const why = e instanceof Error ? e.message.split('\n')[0]! : String(e);
        say(`failed: ${why}`);
        failed.push({ scene: s.scene, why });
      }
    }
  } finally {
    await browser?.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  const file = join(a.out, shard ? TOUR_SHARD_FILE : TOURS_FILE);
  const doc = shard ? tourShardDocument(shard, run, order, toured, missing, failed) : toursDocument(run, order, toured, missing, failed);
  writeOutput(file, JSON.stringify(doc, null, 2) + '\n');
  const of = shard ? `shard ${shardName(shard)}: ${mine.length} of the release's ${order.length} scenes` : `${order.length} scenes`;
  const lines = [
    `toured ${toured.length} of ${of} in ${seconds.toFixed(1)} s (${browser ? `one Chromium for all, started in ${(startMs / 1000).toFixed(1)} s` : 'no Chromium needed'}); ${missing.length} not toured (${missing.length ? missing.map((m) => `${m.scene}: ${m.why}`).join(', ') : 'none'}); wrote ${file}`,
    ...(failed.length ? [`${failed.length} failed: ${failed.map((f) => `${f.scene} (${f.why})`).join('; ')}`] : []),
    ...(shard ? [`When every shard has run: traversa merge --out <dir> <each shard's --out>`] : []),
  ];
  return { text: lines.join('\n'), code: failed.length ? 1 : 0 };
}

/** One scene's tour rendered and written in the release layout under `out`. */
async function tourScene(
  browser: TourBrowser,
  scene: string,
  scan: string,
  nodes: Parameters<TourBrowser['render']>[0]['nodes'],
  run: TourRun,
  out: string,
  say: (line: string) => void,
): Promise<TouredScene> {
  const files = scanFiles(scan);
  const { frames: budgets, up, ...settings } = run.settings;
  say(`rendering ${basename(scan)} (${nodes.length} nodes)`);
  const r = await browser.render({ files, nodes, settings, up, budgets }, say);
  const video = tourPath.video(scene, r.mime);
  writeOutput(join(out, video), r.video);
  writeOutput(join(out, tourPath.poses(scene)), JSON.stringify(r.poses, null, 2) + '\n');
  const frameSets: TouredScene['frameSets'] = {};
  for (const budget of budgets) {
    const set = r.frameSets[budget]!;
    set.frames.forEach((f, i) => writeOutput(join(out, tourPath.frame(scene, budget, f.file)), set.jpegs[i]!));
    writeOutput(join(out, tourPath.frameList(scene, budget)), JSON.stringify(set.frames, null, 2) + '\n');
    frameSets[budget] = { list: tourPath.frameList(scene, budget), count: set.frames.length };
  }
  const t = r.timings;
  say(
    `${t.frames} frames in ${((t.loadMs + t.planMs + t.renderMs) / 1000).toFixed(1)} s (load ${(t.loadMs / 1000).toFixed(1)} s, route ${(t.planMs / 1000).toFixed(1)} s, render ${(t.renderMs / 1000).toFixed(1)} s)`,
  );
  return {
    scene,
    scan: files.map((f) => ({ file: f.name, sha256: fileDigest(f.path) })),
    video,
    poses: tourPath.poses(scene),
    ...(budgets.length ? { frameSets } : {}),
    frames: r.poses.frames.length,
    seconds: Math.round((r.poses.frames.length / settings.fps) * 1000) / 1000,
    cuts: r.poses.cuts ?? [],
  };
}
