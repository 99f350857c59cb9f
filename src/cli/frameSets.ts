import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathPartProblem } from '../core/pathNames.ts';
import { FRAME_BUDGETS, isJpegStart, MAX_FRAME_BYTES, SampledFramesSchema, type FrameBudget, type SampledFrame } from '../core/tour/types.ts';
import { frameSetFolder } from '../core/evalinputs/types.ts';
import { CliError, InputError, readInput, readInputText } from './files.ts';

/**
 * Frame sets in the release layout, `frames/<SCENE>/<budget>/NNN.jpg` beside `frames.json` (a
 * SampledFrame[] in file order), as the studio's export and `cli tour` write them.
 */

export function frameBudget(v: string | undefined, command: string): FrameBudget {
  if (v === undefined) throw new CliError(`${command} needs --frames ${FRAME_BUDGETS.join('|')} (the frame set each prompt shows)`);
  if (!(FRAME_BUDGETS as readonly string[]).includes(v)) throw new CliError(`--frames takes ${FRAME_BUDGETS.join(', ')}, not "${v}"`);
  return v as FrameBudget;
}

/**
 * A scene's frame list at a budget under `root`, checked (each name one plain file name, the list
 * not empty); undefined when the scene has no frames.json at that budget.
 */
export function readFrameList(root: string, scene: string, budget: FrameBudget): SampledFrame[] | undefined {
  const path = join(root, frameSetFolder(scene, budget), 'frames.json');
  if (!existsSync(path)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readInputText(path, 'frame list'));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${path}: the frame list is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = SampledFramesSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(`${path}: at /${issue.path.join('/')}: ${issue.message} (a frame list is [{"file": "000.jpg", "index": 0, "t": 0}, …])`);
  }
  if (parsed.data.length === 0) throw new InputError(`${path}: the frame list is empty`);
  parsed.data.forEach((f, i) => {
    const problem = pathPartProblem(f.file) ?? (f.file === '' ? 'is empty' : null);
    if (problem) throw new InputError(`${path}: at /${i}/file: the frame's file name ${problem}`);
  });
  return parsed.data;
}

/** A frame's bytes (`file` relative to `root`), refused unless it is a JPEG. */
export function readFrame(root: string, file: string): Buffer {
  const path = join(root, file);
  const bytes = readInput(path, 'frame', MAX_FRAME_BYTES);
  if (!isJpegStart(bytes)) throw new InputError(`${path}: the frame is not a JPEG image`);
  return bytes;
}
