import { join } from 'node:path';
import type { Project } from '../core/project.ts';
import { leaks } from '../core/research/split.ts';
import { TRAINING_FORMATS, trainingLine, type TrainingFormat, type TrainingMedia } from '../core/research/trainingExport.ts';
import type { FrameBudget } from '../core/tour/types.ts';
import { checkVideo } from '../formats/capnav/videoCheck.ts';
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { frameSetFolder } from '../core/evalinputs/types.ts';
import { CliError, copyOutput, InputError, openOutput, readInputText, writeOutput } from './files.ts';
import { frameBudget, readFrame, readFrameList } from './frameSets.ts';
import { heldOutScenes, readTasks, type SplitManifest } from './split.ts';

export interface TrainExportArgs {
  tasks: string | undefined;
  frames: string | undefined;
  format: string | undefined;
  out: string | undefined;
  manifest: string | undefined;
}

/**
 * `traversa train-export <tasks.jsonl> --gt <release-dir> --frames <budget>|video --format openai|sharegpt
 * --out <dir> [--manifest <split manifest.json>]`: train.jsonl (core/research/trainingExport.ts) and
 * the frames it cites copied to frames/<SCENE>/<budget>/ — or, with `--frames video`, each scene's
 * touring video referred to and copied to videos/. With the split's manifest, tasks of a
 * held-out scene are refused before anything is written.
 */
export async function trainExportCommand(project: Project, releaseDir: string, a: TrainExportArgs): Promise<string> {
  if (!a.tasks || !a.out)
    throw new CliError(
      'train-export needs the tasks file and --out: train-export <tasks.jsonl> --gt <release-dir> --frames <budget> --format openai|sharegpt --out <dir>',
    );
  const budget = a.frames === 'video' ? 'video' : frameBudget(a.frames, 'train-export');
  if (!(TRAINING_FORMATS as readonly string[]).includes(a.format ?? ''))
    throw new CliError(`--format takes ${TRAINING_FORMATS.join(' or ')}, not ${a.format ?? '(none)'}`);
  const format = a.format as TrainingFormat;
  const { text, tasks } = readTasks(a.tasks);
  if (a.manifest) {
    const found = leaks(text, heldOutScenes(JSON.parse(readInputText(a.manifest, 'split manifest')) as SplitManifest), a.tasks);
    if (found.length)
      throw new InputError(
        `${found.slice(0, 5).join('\n')}${found.length > 5 ? `\n… ${found.length - 5} more` : ''}\nnot exported: the tasks hold scenes held out from training`,
      );
  }
  const scenes = new Map(project.scenes.map((s) => [s.id, s]));
  const profiles = new Map(project.profiles.map((p) => [p.name, p]));
  const media = new Map<string, TrainingMedia>();
  const lines: string[] = [];
  for (const [i, t] of tasks.entries()) {
    const scene = scenes.get(t.scene);
    const profile = profiles.get(t.agent);
    if (!scene || !profile) throw new InputError(`${a.tasks} task ${i + 1}: ${!scene ? `scene ${t.scene}` : `agent ${t.agent}`} is not in ${releaseDir}`);
    let shown = media.get(scene.id);
    if (!shown) {
      shown =
        budget === 'video'
          ? { kind: 'video', file: await touringVideo(releaseDir, scene.id) }
          : { kind: 'frames', frames: frameSet(releaseDir, scene.id, budget) };
      media.set(scene.id, shown);
    }
    lines.push(JSON.stringify(trainingLine(scene, profile, t, shown, format)));
  }
  const files = [...media.values()].flatMap((m) => (m.kind === 'video' ? [m.file] : m.frames.map((f) => f.file)));
  for (const file of files) {
    if (budget === 'video') copyOutput(join(releaseDir, file), join(a.out, file));
    else writeOutput(join(a.out, file), readFrame(releaseDir, file));
  }
  const out = openOutput(join(a.out, 'train.jsonl'));
  try {
    for (let i = 0; i < lines.length; i += 1000) out.write(Buffer.from(lines.slice(i, i + 1000).join('\n') + '\n'));
  } finally {
    out.close();
  }
  const shown =
    budget === 'video'
      ? `${files.length} touring video${files.length === 1 ? '' : 's'}`
      : `${files.length} frames of ${media.size} scene${media.size === 1 ? '' : 's'}`;
  return `${lines.length} ${format} lines written to ${join(a.out, 'train.jsonl')}, with ${shown}`;
}

/** A scene's frame set at a budget, its paths relative to the release (and the export). */
function frameSet(releaseDir: string, scene: string, budget: FrameBudget): { file: string; t: number }[] {
  const list = readFrameList(releaseDir, scene, budget);
  if (!list)
    throw new InputError(`no frame set at budget ${budget} for ${scene}: ${join(releaseDir, frameSetFolder(scene, budget), 'frames.json')} does not exist`);
  return list.map((f) => ({ file: `${frameSetFolder(scene, budget)}/${f.file}`, t: f.t }));
}

/** `videos/<SCENE>.mp4` (or .webm) of the release, checked to be the video it claims to be. */
async function touringVideo(releaseDir: string, scene: string): Promise<string> {
  const names = ['mp4', 'webm'].map((ext) => `videos/${scene}.${ext}`);
  const file = names.find((n) => existsSync(join(releaseDir, n)));
  if (!file) throw new InputError(`no touring video for ${scene}: ${join(releaseDir, names[0]!)} (or .webm) does not exist`);
  const path = join(releaseDir, file);
  // Its headers only: a video may be large.
  const fd = openSync(path, 'r');
  try {
    const read = async (at: number, n: number) => {
      const b = Buffer.alloc(n);
      return b.subarray(0, readSync(fd, b, 0, n, at));
    };
    const check = await checkVideo(fstatSync(fd).size, file.endsWith('.webm') ? 'video/webm' : 'video/mp4', read);
    if (!check.ok) throw new InputError(`${path} ${check.why}`);
  } finally {
    closeSync(fd);
  }
  return file;
}
