import type { Project } from '../../src/core/project.ts';
import { itemKey } from '../../src/core/queue.ts';
import { findCommand, runCommand, type Command } from '../../src/state/commands.ts';
import { stateCommands } from '../../src/app/commandList.ts';
import { replaceDocument } from '../../src/state/history.ts';
import { currentItem } from '../../src/features/labelling/state/queueSelectors.ts';
import { createStudioStore, type DriveView, type StudioStore } from '../../src/state/store.ts';
import { commandForKey } from '../../src/ui/shortcuts.ts';
import { twoStoreyProject } from './twoStoreys.ts';

export { twoStoreyProject };

/** The studio in the label view of the two-storey house, at the queue's first item, the annotator named (labels need a name). */
export function labellingStore(project: Project = twoStoreyProject(), annotator = 'tester'): StudioStore {
  const store = createStudioStore();
  replaceDocument(store, project);
  store.setState((s) => ({ session: { ...s.session, sceneId: project.scenes[0]!.id, annotator } }));
  runCommand(store, findCommand(stateCommands, 'view.label'));
  return store;
}

/** A drive of the current item, stopped at a wall, as the drive controller publishes it. */
export function driveOfCurrentItem(store: StudioStore): DriveView {
  const s = store.getState(),
    item = currentItem(s)!;
  return {
    sceneId: s.session.sceneId!,
    agent: item.agent,
    itemKey: itemKey(item),
    shape: 'box',
    widthM: 0.7,
    depthM: 1,
    heightM: 1.2,
    pose: { x: 1, y: 0, z: 0, yaw: 0 },
    trajectory: [
      [0, 0, 0],
      [1, 0, 0],
    ],
    reached: false,
    contact: { kind: 'wall', message: 'A wall or furniture in the way', point: [1.4, 0.5, 0] },
    readouts: { clearWidthM: 0.7, lastStepM: 0, tightestClearanceM: 0.01 },
    measured: { clearWidthM: 0.7 },
    source: 'hand',
    motion: [],
    playFrom: null,
    reason: 'narrow',
    note: '',
    stoppedAt: null,
    resolution: null,
    doubt: null,
  };
}

/** Drive the current item: the footprint, a draft proposed from what stopped it, and the drive's notice. */
export function drive(store: StudioStore): void {
  store.setState((s) => ({
    ephemeral: { ...s.ephemeral, drive: driveOfCurrentItem(store), notice: 'WHEELCHAIR stopped: Narrow passage. Press X to label it not traversable.' },
    // Written the way the drive controller writes it (without `by`).
    session: { ...s.session, labelDraft: { reason: 'narrow', note: 'Narrow passage: clear width 0.70 m < 0.74 m needed (driven)' } },
  }));
}

/** Press a key as the app does: the command the key means now, run if it is enabled; its id, or undefined when the key does nothing. */
export function press(
  store: StudioStore,
  key: string,
  mods: { ctrl?: boolean; shift?: boolean } = {},
  commands: readonly Command[] = stateCommands,
): string | undefined {
  const e = { key, ctrlKey: !!mods.ctrl, metaKey: false, altKey: false, shiftKey: !!mods.shift, target: null };
  const c = commandForKey(commands, e, store.getState());
  if (!c || !runCommand(store, c)) return undefined;
  return c.id;
}
