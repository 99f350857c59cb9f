import { basename, extname } from 'node:path';
import { hasErrors } from '../core/problems.ts';
import type { TourSettings } from '../core/tour/settings.ts';
import type { TourPoses } from '../core/tour/types.ts';
import { CliError, InputError, statInput, writeOutput } from './files.ts';
import { upAxisOf } from './options.ts';
import { scanFiles } from './sceneScans.ts';
import { readInputs } from './graphInput.ts';
import { checkChromium, openTourBrowser } from './tourBrowser.ts';
import { builtApp, repoRoot, tourSettings, type TourArgs } from './tourSetup.ts';

export type { TourArgs } from './tourSetup.ts';

/**
 * `tour --mesh <file> --graph <graph.json> --out <video> [--fps 2] [--fov 75] [--eye 1.5] [--size 640x480] [--up y|z]`:
 * the automatic touring video of a scan, rendered headless by Debian's Chromium (driven by
 * playwright-core) with the studio's own code — the built studio (dist/) served on 127.0.0.1, its
 * tour page (src/app/tour.html) loading the scan and graph handed to it. Writes the video (MP4 with
 * H.264, or WebM with VP9 where H.264 cannot be encoded) and `<video name>.poses.json` beside it.
 * Progress goes to stderr. Bad arguments exit 2; missing or unreadable inputs, a graph with errors,
 * no Chromium and a failed render exit 1. `tour --gt <release-dir> --scans <dir> --out <dir>` tours
 * every scene of a release instead (tourRelease.ts).
 */

/** What a tour run wrote and how long it took. */
export interface TourRun {
  out: string;
  posesPath: string;
  codec: 'avc' | 'vp9';
  settings: TourSettings;
  poses: TourPoses;
  skippedLegs: { from: string; to: string; why: string }[];
  unseen: string[];
  timings: { loadMs: number; planMs: number; renderMs: number; frames: number };
}

/** `tour` either way: one scan (--mesh, --graph), or every scan of a release (--gt, --scans). */
export async function tourCli(a: TourArgs): Promise<{ text: string; code: number }> {
  if (a.gt !== undefined || a.scans !== undefined) return (await import('./tourRelease.ts')).tourReleaseCommand(a);
  if (a.shard !== undefined || a.frames !== undefined)
    throw new CliError(
      `--${a.shard !== undefined ? 'shard' : 'frames'} is for the tour of a release: give --gt <release-dir> and --scans <dir> (and --out <dir>)`,
    );
  return { text: await tourCommand(a), code: 0 };
}

export async function tourCommand(a: TourArgs, log: (line: string) => void = (l) => process.stderr.write(`tour: ${l}\n`)): Promise<string> {
  const r = await runTour(a, log);
  const t = r.timings,
    settings = r.settings;
  const notes = [
    ...(r.poses.cuts ?? []).map(
      (c) =>
        `note: no walkable route from ${c.from} to ${c.to} (${c.why}): the leg is not walked, the video cuts at ${c.t.toFixed(1)} s (the poses file lists the cut)`,
    ),
    ...(r.unseen.length ? [`note: never in view: ${r.unseen.join(', ')}`] : []),
  ];
  return [
    `wrote ${r.out} (${r.codec === 'avc' ? 'MP4, H.264' : 'WebM, VP9'}, ${t.frames} frames at ${settings.fps} fps = ${(t.frames / settings.fps).toFixed(1)} s, ${settings.width}×${settings.height}) and ${r.posesPath}`,
    `rendering and encoding: ${(t.frames / (t.renderMs / 1000)).toFixed(1)} frames per second of wall time (load ${(t.loadMs / 1000).toFixed(1)} s, route ${(t.planMs / 1000).toFixed(1)} s, render ${(t.renderMs / 1000).toFixed(1)} s)`,
    ...notes,
  ].join('\n');
}

/** Render the tour and write its files (what `tour` does, without the words). */
export async function runTour(a: TourArgs, log: (line: string) => void): Promise<TourRun> {
  if (!a.mesh) throw new CliError('tour needs --mesh <file>');
  if (!a.graph) throw new CliError('tour needs --graph <graph.json>');
  if (!a.out) throw new CliError('tour needs --out <video file> (.mp4, or .webm)');
  const up = upAxisOf(a.up);
  const settings = tourSettings(a);
  if (!statInput(a.mesh, 'mesh').isFile()) throw new InputError(`${a.mesh}: the mesh is not a file`);
  const files = scanFiles(a.mesh);
  const { graph, problems } = readInputs(a.graph, undefined);
  if (hasErrors(problems)) throw new InputError(`${a.graph} has errors (listed above): fix them before touring it`);
  if (graph.nodes.length === 0) throw new InputError(`${a.graph}: the graph has no nodes; the tour walks through every node`);
  checkChromium();

  const dist = builtApp(repoRoot(), log);
  const browser = await openTourBrowser(dist);
  try {
    log(
      `rendering ${basename(a.mesh)} (${graph.nodes.length} nodes) at ${settings.fps} fps, ${settings.fovDeg}°, eye ${settings.eyeHeightM} m, ${settings.width}×${settings.height}`,
    );
    const result = await browser.render({ files, nodes: graph.nodes, settings, up, budgets: [] }, log);
    const bytes = result.video;
    const ext = result.mime.includes('webm') ? '.webm' : '.mp4';
    const given = extname(a.out).toLowerCase();
    let out = a.out;
    if (given !== ext) {
      out = (given === '.mp4' || given === '.webm' ? a.out.slice(0, -given.length) : a.out) + ext;
      if (given === '.mp4') log(`this browser cannot encode H.264: the video is WebM (VP9), written to ${out}`);
    }
    const posesPath = out.slice(0, -ext.length) + '.poses.json';
    writeOutput(out, bytes);
    writeOutput(posesPath, JSON.stringify(result.poses, null, 2) + '\n');
    return {
      out,
      posesPath,
      codec: result.codec,
      settings,
      poses: result.poses,
      skippedLegs: result.skippedLegs,
      unseen: result.unseen,
      timings: result.timings,
    };
  } finally {
    await browser.close();
  }
}
