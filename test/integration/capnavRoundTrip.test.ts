import { beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../src/core/project.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { readTree, resolveIndependently, type OracleNode, type OracleQuestion, type ReleaseFile } from '../support/capnavOracle.ts';
import { CAPNAV_DIR, sharedAvailable } from '../support/shared.ts';
import { withResolvedRefsAsIds } from '../support/projects.ts';

const haveRelease = sharedAvailable(CAPNAV_DIR, 'round trip of the real release');

describe.skipIf(!haveRelease)('importing and exporting the shared CapNav release', () => {
  let original: ReleaseFile[];
  let project: Project;
  let written: ReleaseFile[];
  const parsed = (files: ReleaseFile[]) => new Map(files.map((f) => [f.path, JSON.parse(f.text) as unknown]));
  let before: Map<string, unknown>;
  let after: Map<string, unknown>;

  beforeAll(() => {
    original = readTree(CAPNAV_DIR);
    const first = readRelease(original);
    expect(first.problems.filter((p) => p.severity === 'fatal')).toEqual([]);
    project = first.project!;
    written = writeRelease(project);
    before = parsed(original);
    after = parsed(written);
  });

  it('imports every scene without a blocking problem', () => {
    expect(project.scenes).toHaveLength(30);
  });

  it('reads back what it wrote as the same project (resolved references now written as ids)', () => {
    const again = readRelease(written);
    expect(again.problems.filter((p) => p.severity === 'fatal')).toEqual([]);
    expect(again.project).toEqual(withResolvedRefsAsIds(project));
    expect(writeRelease(again.project!)).toEqual(written);
  });

  it('writes the same files the release has, in the release layout', () => {
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  });

  it('writes every graph and agent_profile.json back unchanged', () => {
    const paths = [...before.keys()].filter((p) => p.startsWith('graphs/') || p === 'agent_profile.json');
    expect(paths).toHaveLength(31);
    for (const p of paths) expect(after.get(p), p).toEqual(before.get(p));
  });

  it('writes every traverse file back unchanged, adding an empty _hallucinatedQuestions where it was missing', () => {
    let added = 0;
    for (const p of [...before.keys()].filter((k) => k.startsWith('traverse/'))) {
      const was = before.get(p) as Record<string, unknown>;
      if (!('_hallucinatedQuestions' in was)) added++;
      expect(after.get(p), p).toEqual({ _hallucinatedQuestions: [], ...was });
    }
    expect(added).toBeGreaterThan(0);
  });

  it('writes questions unchanged except references: resolvable ones become node ids, the others stay verbatim', () => {
    let renamed = 0,
      verbatim = 0;
    for (const p of [...before.keys()].filter((k) => k.startsWith('qa/'))) {
      const scene = p.slice('qa/'.length, -'_QA.json'.length);
      const nodes = (before.get(`graphs/${scene}-graph.json`) as { nodes: OracleNode[] }).nodes;
      const raw = before.get(p) as OracleQuestion[] | { questions: OracleQuestion[] };
      const canon = (ref: string) => {
        const id = resolveIndependently(ref, nodes);
        if (id === null) verbatim++;
        else if (id !== ref) renamed++;
        return id ?? ref;
      };
      const expected = (Array.isArray(raw) ? raw : raw.questions).map((q) => ({
        ...q,
        nodes_involved: {
          ...q.nodes_involved,
          start: canon(q.nodes_involved.start),
          intermediate: (q.nodes_involved.intermediate ?? []).map(canon),
          end: canon(q.nodes_involved.end),
        },
      }));
      expect(after.get(p), p).toEqual(expected);
    }
    expect(renamed).toBeGreaterThan(0);
    expect(verbatim).toBeGreaterThan(0);
  });
});
