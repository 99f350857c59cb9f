import type { Project } from '../../src/core/project.ts';
import type { NodeRef } from '../../src/core/questions.ts';
import type { Problem } from '../../src/core/problems.ts';

/**
 * The project as it reads back after being written: the writer puts a resolved reference down as
 * its node id, so reading it again records the id as the reference's text. Nothing else changes.
 */
export function withResolvedRefsAsIds(project: Project): Project {
  const fix = (r: NodeRef): NodeRef => (r.nodeId === null ? r : { raw: r.nodeId, nodeId: r.nodeId });
  const copy = structuredClone(project);
  for (const scene of copy.scenes) {
    scene.questions = scene.questions.map((q) => ({ ...q, start: fix(q.start), intermediate: q.intermediate.map(fix), end: fix(q.end) }));
  }
  return copy;
}

/** Problems reduced to what a user reads first: severity, code, file and location. */
export const where = (problems: readonly Problem[]) => problems.map((p) => ({ severity: p.severity, code: p.code, file: p.file, location: p.location }));

export const blocking = (problems: readonly Problem[]) => problems.filter((p) => p.severity === 'fatal');
