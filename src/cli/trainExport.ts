import { join } from 'node:path';
import type { Project } from '../core/project.ts';
import { leaks } from '../core/research/split.ts';
import { TRAINING_FORMATS, trainingLine, type TrainingFormat } from '../core/research/trainingExport.ts';
import { frameSetFolder } from '../core/evalinputs/types.ts';
import { CliError, InputError, openOutput, readInputText, writeOutput } from './files.ts';
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
 * `traversa train-export <tasks.jsonl> --gt <release-dir> --frames <budget> --format openai|sharegpt
 * --out <dir> [--manifest <split manifest.json>]`: train.jsonl (core/research/trainingExport.ts) and
 * the frames it cites copied to frames/<SCENE>/<budget>/. With the split's manifest, tasks of a
 * held-out scene are refused before anything is written.
 */
export function trainExportCommand(project: Project, releaseDir: string, a: TrainExportArgs): string {
  if (!a.tasks || !a.out)
    throw new CliError(
      'train-export needs the tasks file and --out: train-export <tasks.jsonl> --gt <release-dir> --frames <budget> --format openai|sharegpt --out <dir>',
    );
  const budget = frameBudget(a.frames, 'train-export');
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
  const frameSets = new Map<string, { file: string; t: number }[]>();
  const lines: string[] = [];
  for (const [i, t] of tasks.entries()) {
    const scene = scenes.get(t.scene);
    const profile = profiles.get(t.agent);
    if (!scene || !profile) throw new InputError(`${a.tasks} task ${i + 1}: ${!scene ? `scene ${t.scene}` : `agent ${t.agent}`} is not in ${releaseDir}`);
    let frames = frameSets.get(scene.id);
    if (!frames) {
      const list = readFrameList(releaseDir, scene.id, budget);
      if (!list)
        throw new InputError(
          `no frame set at budget ${budget} for ${scene.id}: ${join(releaseDir, frameSetFolder(scene.id, budget), 'frames.json')} does not exist`,
        );
      frames = list.map((f) => ({ file: `${frameSetFolder(scene.id, budget)}/${f.file}`, t: f.t }));
      frameSets.set(scene.id, frames);
    }
    lines.push(JSON.stringify(trainingLine(scene, profile, t, frames, format)));
  }
  for (const frames of frameSets.values()) for (const f of frames) writeOutput(join(a.out, f.file), readFrame(releaseDir, f.file));
  const out = openOutput(join(a.out, 'train.jsonl'));
  try {
    for (let i = 0; i < lines.length; i += 1000) out.write(Buffer.from(lines.slice(i, i + 1000).join('\n') + '\n'));
  } finally {
    out.close();
  }
  const frameCount = [...frameSets.values()].reduce((n, f) => n + f.length, 0);
  return `${lines.length} ${format} lines written to ${join(a.out, 'train.jsonl')}, with ${frameCount} frames of ${frameSets.size} scene${frameSets.size === 1 ? '' : 's'}`;
}
