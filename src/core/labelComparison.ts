import type { Project } from './project.ts';
import { labelAgreement, type LabelAgreement } from './interRater.ts';

/** Agreement of two labellings of the same scenes (e.g. two annotators' exports), scene by scene and pooled. */
export interface LabelComparison {
  /** Where the other labelling came from (a folder name). */
  source: string;
  scenes: { sceneId: string; agreement: LabelAgreement }[];
  /** Scenes of the other labelling this project does not have. */
  unmatched: string[];
  /** All matched scenes together. */
  overall: LabelAgreement;
}

/** Compare the labels of `ours` with `theirs` on every scene both have. */
export function compareLabellings(ours: Pick<Project, 'scenes'>, theirs: Pick<Project, 'scenes'>, source: string): LabelComparison {
  const mine = new Map(ours.scenes.map((s) => [s.id, s]));
  const scenes: LabelComparison['scenes'] = [];
  const unmatched: string[] = [];
  for (const other of theirs.scenes) {
    const scene = mine.get(other.id);
    if (!scene) {
      unmatched.push(other.id);
      continue;
    }
    scenes.push({ sceneId: scene.id, agreement: labelAgreement(scene.labels, other.labels) });
  }
  // Pooled: one table per side with scene-qualified segment keys, so the same node ids in two scenes stay apart.
  const pool = (side: 'ours' | 'theirs') => {
    const out: Record<string, Record<string, Project['scenes'][number]['labels'][string][string]>> = {};
    for (const { sceneId } of scenes) {
      const scene = (side === 'ours' ? ours : theirs).scenes.find((s) => s.id === sceneId)!;
      for (const [agent, table] of Object.entries(scene.labels)) {
        for (const [key, label] of Object.entries(table)) (out[agent] ??= {})[qualify(sceneId, key)] = label;
      }
    }
    return out;
  };
  return { source, scenes, unmatched, overall: labelAgreement(pool('ours'), pool('theirs')) };
}

/** `a|b` → `S/a|S/b`: still a segment key, unique across scenes. */
const qualify = (scene: string, key: string) =>
  key
    .split('|')
    .map((n) => `${scene}/${n}`)
    .join('|');
