import type { Problem } from '../../core/problems.ts';
import type { Scene } from '../../core/project.ts';

/**
 * The largest release Traversa reads, in the studio and on the command line alike (issue 25 §9:
 * a 200 MB graph of a million nodes took every command minutes and gigabytes, or overflowed the
 * stack). A CapNav scene has tens of nodes and HM3D has 1,000 scenes; these are far above both and
 * below what a 2-CPU, 8 GB machine reads in seconds (docs/manual/limits.md, "Limits and hostile input").
 */
export interface ReleaseLimits {
  readonly nodes: number;
  readonly edges: number;
  readonly questions: number;
  readonly labelsPerAgent: number;
  readonly records: number;
}

export const RELEASE_LIMITS: ReleaseLimits = Object.freeze({
  /** Nodes in one scene's graph. */
  nodes: 100_000,
  /** Edges in one scene's graph. */
  edges: 250_000,
  /** Questions in one scene's `_QA.json`. */
  questions: 100_000,
  /** Entries under one agent in one scene's `-traverse.json`. */
  labelsPerAgent: 250_000,
  /** Nodes, edges, questions and labels of all scenes together. */
  records: 1_000_000,
});

const n = (v: number) => v.toLocaleString('en');

/**
 * A fatal problem when `list` (read from `file`) is longer than `limit` allows, checked on the
 * parsed JSON before any record of it is examined.
 */
export function overLimit(file: string, location: string, count: number, limit: number, what: string, holder: string): Problem | null {
  if (count <= limit) return null;
  return {
    severity: 'fatal',
    code: 'release.too-large',
    file,
    location,
    message: `${n(count)} ${what}; ${holder} holds at most ${n(limit)} (the largest release Traversa reads: see docs/manual/limits.md)`,
  };
}

/** Nodes, edges, questions and labels of one read scene: what counts against `records`. */
export function sceneRecords(scene: Scene): number {
  let labels = 0;
  for (const table of Object.values(scene.labels)) labels += Object.keys(table).length;
  return scene.graph.nodes.length + scene.graph.edges.length + scene.questions.length + labels;
}

/** The problem that stops a release whose scenes together pass `records`. */
export function releaseTooLarge(file: string, total: number, limit: number): Problem {
  return {
    severity: 'fatal',
    code: 'release.too-large',
    file,
    location: '',
    message: `the release holds more than ${n(limit)} nodes, edges, questions and labels together (${n(total)} by this scene's files); the scenes after it are not read (see docs/manual/limits.md)`,
  };
}
