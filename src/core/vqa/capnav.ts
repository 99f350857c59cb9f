import type { Project, Scene } from '../project.ts';
import { waypoints, type NavQuestion } from '../questions.ts';
import type { QaItem, TrailStep } from './item.ts';
import { highestItemNumber } from './items.ts';
import { cloneTrail } from './trail.ts';

/**
 * CapNav's navigation questions as items to review. CapNav's questions were machine-generated and
 * then human-checked for hallucination; an item lets that check go through the same review
 * queue, overlap and agreement statistics as any other item (see hallucination.ts for how its
 * verdict reaches the scene's hallucination list).
 *
 * The item stores a placeholder yes/no answer that nothing reads: a navigation question's answer
 * is per agent and comes from the traversability labels (navigationAnswers.ts), which is what the
 * studio shows, exports and scores. The generator's `reason` becomes the generated trail, one step
 * per sentence.
 */
export interface CapnavItemOptions {
  createdAt: string;
  requiredReviews?: number;
  /** One step per sentence of the reason (default) or the whole reason as one step. */
  splitSentences?: boolean;
  /** Default spatial / TP (topology): the questions ask whether two places are connected. */
  category?: QaItem['category'];
  generator?: string;
  /** The file and import the items come from (the queue can be narrowed to one import). */
  importedFrom?: QaItem['importedFrom'];
}

export const CAPNAV_CATEGORY: QaItem['category'] = { capability: 'spatial', subcategory: 'TP' };

/**
 * Sentences of a text: a cut after . ! or ? followed by a space and a capital, digit, quote or
 * bracket. "0.70 m" and "e.g. the door" stay whole (no space after the first dot / no capital
 * after the second).
 */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=["'“(\[\p{Lu}\p{N}])/u)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function reasonTrail(reason: string | undefined, split = true): TrailStep[] {
  const text = (reason ?? '').trim();
  if (text === '') return [];
  const parts = split ? splitSentences(text) : [text];
  return parts.map((t, i) => ({
    id: `s${i + 1}`,
    title: parts.length === 1 ? 'Reason' : `Reason ${i + 1}/${parts.length}`,
    text: t,
    kind: 'spatial',
    links: { viewpoints: [], nodes: [], edges: [], marks: [] },
    origin: 'generated',
  }));
}

/** The item for question `index` of the scene. Resolved references become its node anchors; unresolved ones are left out (the import reports them). */
export function capnavQuestionItem(scene: Pick<Scene, 'id' | 'questions'>, index: number, id: string, options: CapnavItemOptions): QaItem {
  const q = scene.questions[index];
  if (!q) throw new RangeError(`scene ${scene.id} has no question ${index}`);
  const nodes = [
    ...new Set(
      waypoints(q)
        .map((r) => r.nodeId)
        .filter((n): n is string => n !== null),
    ),
  ];
  const trail = reasonTrail(q.reason, options.splitSentences ?? true);
  const answer = { kind: 'yesno' as const, correct: true };
  return {
    id,
    sceneId: scene.id,
    question: q.text,
    answer,
    category: { ...(options.category ?? CAPNAV_CATEGORY) },
    anchors: { viewpoints: [], marks: [], nodes, edges: [] },
    trail,
    source: 'capnav',
    capnavQuestion: index,
    generated: { question: q.text, answer: { ...answer }, trail: cloneTrail(trail), ...(options.generator ? { generator: options.generator } : {}) },
    status: 'pending',
    requiredReviews: Math.min(5, Math.max(1, options.requiredReviews ?? 1)),
    reviews: [],
    createdAt: options.createdAt,
    author: '',
    ...(options.importedFrom ? { importedFrom: { ...options.importedFrom } } : {}),
  };
}

/** Items for the scene's questions that no CapNav item stands for yet, numbered after the project's items. */
export function capnavItemsForScene(project: Pick<Project, 'scenes' | 'qa'>, sceneId: string, options: CapnavItemOptions): QaItem[] {
  const scene = project.scenes.find((s) => s.id === sceneId);
  if (!scene) return [];
  // A generated task stands for its question already: it is not turned into a CapNav item too.
  const covered = new Set(project.qa.items.filter((i) => i.source !== 'written' && i.sceneId === sceneId).map((i) => i.capnavQuestion));
  let n = highestItemNumber(project.qa.items);
  return scene.questions.flatMap((_, index) => (covered.has(index) ? [] : [capnavQuestionItem(scene, index, `qa_${++n}`, options)]));
}

/** Items read from CapNav question files, with the scenes' question lists they bring (by scene id). */
export interface CapnavItemsRead {
  items: QaItem[];
  sceneQuestions: Record<string, NavQuestion[]>;
}

/** Apply an import of CapNav question files: scene question lists where given, then the items. */
export function applyCapnavQaImport(project: Project, result: CapnavItemsRead): Project {
  const scenes = project.scenes.map((s) => (result.sceneQuestions[s.id] ? { ...s, questions: result.sceneQuestions[s.id]! } : s));
  return { ...project, scenes, qa: { ...project.qa, items: [...project.qa.items, ...result.items] } };
}
