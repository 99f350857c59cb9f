import type { ReasonCategory } from '../core/rules.ts';
import type { RejectReason } from '../core/vqa/item.ts';
import type { CameraMode, Tool, View } from './store.ts';

/**
 * Every command id of the studio, closed: a command defined, found or run by an id not listed here
 * does not compile (it used to be a string, and a typo a throw at run time). Add a command's id here
 * when you add the command; a unit test checks that the studio defines each id once.
 */
export type CommandId =
  | `view.${View}`
  | 'project.import'
  | 'project.openSample'
  | 'project.export'
  | 'project.exportBundle'
  | 'tour.record'
  | 'tour.walk'
  | 'tour.cancel'
  | 'qa.review'
  | 'qa.write'
  | 'qa.accept'
  | 'qa.edit'
  | 'qa.acceptEdits'
  | 'qa.reject'
  | `qa.reject.${RejectReason}`
  | 'qa.adjudicate.accept'
  | 'qa.adjudicate.reject'
  | 'qa.cancel'
  | 'qa.comment'
  | 'qa.next'
  | 'qa.previous'
  | 'label.traversable'
  | 'label.blocked'
  | 'label.accept'
  | 'label.note'
  | `label.reason.${ReasonCategory}`
  | 'drive.auto'
  | 'drive.replay'
  | 'drive.spawn'
  | 'queue.next'
  | 'queue.previous'
  | 'queue.first'
  | 'queue.nextUnlabelled'
  | 'queue.nextQuestion'
  | 'queue.previousQuestion'
  | 'queue.nextAgent'
  | 'queue.toggleHallucinated'
  | `tool.${Tool}`
  | `camera.${CameraMode}`
  | 'measure.toggleMode'
  | 'slice.toggle'
  | 'slice.up'
  | 'slice.down'
  | 'slice.followSegment'
  | 'selection.delete'
  | 'selection.deleteBackspace'
  | 'node.rename'
  | 'node.assignFloor'
  | 'scene.new'
  | 'scene.next'
  | 'scene.previous'
  | 'edit.undo'
  | 'edit.redo'
  | 'edit.redoY'
  | 'help.toggle'
  | 'help.close'
  | 'projects.toggle'
  | 'projects.close'
  | 'question.next'
  | 'question.previous'
  | 'question.toggleHallucinated'
  | 'agent.next'
  | 'score.next'
  | 'score.previous'
  | 'score.viewer.close'
  | 'score.hop.next'
  | 'score.hop.previous'
  | 'score.hop.nextBracket'
  | 'score.hop.previousBracket'
  | 'escape';

/**
 * Commands that take arguments or give an answer ("open project X", "download this scene's video",
 * "how many changes are unsent"). Each feature declares its own here by declaration merging, in
 * `src/features/<feature>/app/commands.ts` beside their implementation:
 *   declare module '…/state/commandIds.ts' { interface ArgCommands { 'projects.open': (id: string) => Promise<void> } }
 * buildArgCommands (src/app/commandRegistry.ts) supplies every one (a missing one does not compile) and panels run them by id
 * with `useCommand` (src/ui/commands.ts), as they run the commands above.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ArgCommands {}
export type ArgCommandId = keyof ArgCommands;

/** Every command by id, as a panel runs it: one without arguments runs if it is enabled. */
export type Runnable = { readonly [K in CommandId]: () => void } & ArgCommands;

/** An id is a command with arguments or one without, never both (this does not compile otherwise). */
export const NO_ID_IN_BOTH: [ArgCommandId & CommandId] extends [never] ? true : never = true;

/** A feature's commands with arguments: those whose ids start with one of `P` and a dot (what its builder returns). */
export type ArgCommandsOf<P extends string> = Pick<ArgCommands, Extract<ArgCommandId, `${P}.${string}`>>;
