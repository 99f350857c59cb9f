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
