import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSize, settingsProblem, TOUR_DEFAULTS, type TourSettings } from '../core/tour/settings.ts';
import { CliError, InputError } from './files.ts';
import { numberOption } from './options.ts';
import { newestChange } from './newestChange.mjs';

/** What both forms of `tour` read (tour.ts: one scan; tourRelease.ts: a release): the arguments, the settings, the built studio. */

export interface TourArgs {
  mesh?: string;
  graph?: string;
  out?: string;
  fps?: string;
  fov?: string;
  eye?: string;
  size?: string;
  up?: string;
  /** The release form (tourRelease.ts): the release, its scans, the shard and the frame budgets. */
  gt?: string;
  scans?: string;
  shard?: string;
  frames?: string;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The bundle runs from node_modules/.cache/…: find the repository by its package.json instead. */
export function repoRoot(): string {
  for (let d = dirname(fileURLToPath(import.meta.url)); d !== dirname(d); d = dirname(d)) {
    if (existsSync(join(d, 'package.json')) && existsSync(join(d, 'src', 'app', 'tour.html'))) return d;
  }
  return ROOT;
}

export function tourSettings(a: TourArgs): TourSettings {
  const size: [number, number] | null = a.size === undefined ? [TOUR_DEFAULTS.width, TOUR_DEFAULTS.height] : parseSize(a.size);
  if (!size) throw new CliError(`--size takes WIDTHxHEIGHT in pixels, like 640x480, not "${a.size}"`);
  const s: TourSettings = {
    ...TOUR_DEFAULTS,
    fps: numberOption('fps', a.fps, TOUR_DEFAULTS.fps),
    fovDeg: numberOption('fov', a.fov, TOUR_DEFAULTS.fovDeg),
    eyeHeightM: numberOption('eye', a.eye, TOUR_DEFAULTS.eyeHeightM),
    width: size[0],
    height: size[1],
  };
  const problem = settingsProblem(s);
  if (problem)
    throw new CliError(
      problem
        .replace('the frame rate', '--fps: the frame rate')
        .replace('the field of view', '--fov: the field of view')
        .replace('the eye height', '--eye: the eye height')
        .replace(/^the (width|height)/, '--size: the $1'),
    );
  return s;
}

/** The built studio, built first when missing or older than the sources it is built from. */
export function builtApp(root: string, log: (s: string) => void): string {
  const dist = join(root, 'dist');
  const page = join(dist, 'src', 'app', 'tour.html');
  const sources = Math.max(newestChange(join(root, 'src')), ...['index.html', 'vite.config.ts', 'package.json'].map((f) => statSync(join(root, f)).mtimeMs));
  if (existsSync(page) && statSync(page).mtimeMs >= sources && existsSync(join(dist, 'index.html'))) return dist;
  log(
    existsSync(page)
      ? 'the built studio (dist/) is older than the sources: building it again (npx vite build)…'
      : 'the studio is not built (dist/): building it (npx vite build)…',
  );
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = existsSync(vite)
    ? spawnSync(process.execPath, [vite, 'build', '--logLevel', 'error'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] })
    : null;
  if (!r || r.status !== 0 || !existsSync(page)) throw new InputError(`the studio could not be built; run "npx vite build" in ${root} and try again`);
  return dist;
}
