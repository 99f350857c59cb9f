import type { Finding, Where } from '../../core/checks.ts';
import { traverseKeyOf } from '../../core/agents.ts';
import { pointer, type Problem } from '../../core/problems.ts';
import { releasePath } from './files.ts';

/** How one scene's findings map onto its files. */
export interface SceneFiles {
  graph: string;
  qa: string;
  traverse: string;
  /** `[]` when the question file is a bare array, `['questions']` for `{ "questions": [...] }`. */
  qaBase: string[];
  /** Canonical agent name → the key the traverse file used for it. */
  agentKeys: Map<string, string>;
}

export function defaultSceneFiles(scene: string): SceneFiles {
  return { graph: releasePath.graph(scene), qa: releasePath.qa(scene), traverse: releasePath.traverse(scene), qaBase: [], agentKeys: new Map() };
}

function place(where: Where, f: SceneFiles): { file: string; location: string } {
  switch (where.kind) {
    case 'node':
      return { file: f.graph, location: pointer(['nodes', where.index, ...(where.field ? [where.field] : [])]) };
    case 'edge':
      return { file: f.graph, location: pointer(['edges', where.index, ...(where.field ? [where.field] : [])]) };
    case 'question': {
      const base = [...f.qaBase, where.index];
      if (where.field === 'intermediate') return { file: f.qa, location: pointer([...base, 'nodes_involved', 'intermediate', where.item]) };
      if (where.field === 'question' || where.field === undefined) return { file: f.qa, location: pointer(where.field ? [...base, 'question'] : base) };
      return { file: f.qa, location: pointer([...base, 'nodes_involved', where.field]) };
    }
    case 'label':
      return { file: f.traverse, location: pointer([f.agentKeys.get(where.agent) ?? traverseKeyOf(where.agent), where.key]) };
    case 'hallucinated':
      return { file: f.traverse, location: pointer(['_hallucinatedQuestions', where.index]) };
  }
}

export function locateFinding(finding: Finding, files: SceneFiles): Problem {
  return { severity: finding.severity, code: finding.code, ...place(finding.where, files), message: finding.message };
}
