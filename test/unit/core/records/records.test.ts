import { describe, expect, it } from 'vitest';
import { setLabel } from '../../../../src/core/labelEdit.ts';
import { adjudicate, labelDisputes, votesOf } from '../../../../src/core/labelVotes.ts';
import type { Label } from '../../../../src/core/labels.ts';
import type { Project } from '../../../../src/core/project.ts';
import { addReview } from '../../../../src/core/vqa/review.ts';
import { createWrittenItem } from '../../../../src/core/vqa/items.ts';
import { applyChanges, assembleProject, ProjectAssembly } from '../../../../src/core/records/assemble.ts';
import { bucketOf, bucketOfKey, keyOf, parseKey, scopeOf, scopeOfKey } from '../../../../src/core/records/keys.ts';
import { diffProjects, diffProjectsSteps, projectRecords, type Rec } from '../../../../src/core/records/records.ts';
import { completed } from '../../../../src/core/steps.ts';
import { emptyProject } from '../../../../src/core/project.ts';
import { readDoc } from '../../../../src/core/sync/docs.ts';
import { readJsonFiles } from '../../../../src/cli/files.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { withScene } from '../../../../src/state/edits.ts';
import { houseScene, releaseFiles } from '../../../support/releaseBuilder.ts';
import { CAPNAV_DIR, sharedAvailable } from '../../../support/shared.ts';

const house = (): Project => readRelease(releaseFiles([houseScene('HM3D00025'), houseScene('HM3D00033')])).project!;
const label = (traversable: boolean, annotator: string, timestamp: string, note = ''): Label => ({
  traversable,
  note,
  annotator,
  timestamp,
  source: 'annotator',
});
const reopen = (p: Project) => {
  const a = assembleProject(projectRecords(p));
  expect(a.bad).toEqual([]);
  return a.project!;
};
const nonEmpty = <T extends object>(t: Record<string, T>) => Object.fromEntries(Object.entries(t).filter(([, v]) => Object.keys(v).length));
/** JSON with keys sorted: what a record holds, whatever order its fields were written in. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );
/** A project compared by what it stores. */
const stored = (p: Project) =>
  projectRecords(p)
    .map((r) => [r.key, r.order, canonical(r.value)])
    .sort();

describe('a project stored as records', () => {
  it('reads back exactly as it was written: graph, questions, labels in force and their order', () => {
    const p = house();
    const back = reopen(p);
    expect(stored(back)).toEqual(stored(p));
    expect(back.scenes.map((s) => s.id)).toEqual(['HM3D00025', 'HM3D00033']);
    // An agent without labels has no records (the release files list every agent anyway).
    expect(back.scenes[0]!.labels).toEqual(nonEmpty(p.scenes[0]!.labels));
    expect(Object.keys(back.scenes[0]!.labels.HUMAN ?? {})).toEqual(Object.keys(p.scenes[0]!.labels.HUMAN ?? {}));
    expect(back.scenes[0]!.graph).toEqual(p.scenes[0]!.graph);
    expect(back.scenes[0]!.questions).toEqual(p.scenes[0]!.questions);
  });

  it('a scene read from a release (one vote per label) stores the same label records as with its vote table made', () => {
    const p = house();
    const scene = {
      ...p.scenes[0]!,
      labels: { ...p.scenes[0]!.labels, WHEELCHAIR: { ...p.scenes[0]!.labels.WHEELCHAIR, 'node_1|node_2': label(false, 'alice', 't1', 'sill') } },
    };
    const plain = { ...p, scenes: [scene] };
    const voted = { ...p, scenes: [{ ...scene, votes: votesOf(scene) }] };
    const labelRecs = (q: Project) =>
      projectRecords(q)
        .filter((r) => r.key.startsWith('label/'))
        .map((r) => [r.key, r.order, r.value]);
    expect(labelRecs(plain).length).toBeGreaterThan(1);
    expect(labelRecs(plain)).toContainEqual([
      keyOf.label(scene.id, 'WHEELCHAIR', 'node_1|node_2', 'alice'),
      expect.any(Number),
      expect.objectContaining({ note: 'sill' }),
    ]);
    expect(labelRecs(plain)).toEqual(labelRecs(voted));
  });

  it.skipIf(!sharedAvailable(CAPNAV_DIR, 'storing the real CapNav release as records'))('stores the real 30-scene release and reads it back unchanged', () => {
    const { project } = readRelease(readJsonFiles(CAPNAV_DIR), 'capnav');
    const back = reopen(project!);
    expect(back.scenes).toHaveLength(30);
    expect(stored(back)).toEqual(stored(project!));
    for (const [i, s] of project!.scenes.entries()) expect(back.scenes[i]!.labels).toEqual(nonEmpty(s.labels));
  });

  it('a record naming __proto__, constructor or prototype is set aside with why, and every other label still counts (issue 25 §2)', () => {
    const p = house();
    const recs = projectRecords(p);
    const real = recs.find((r) => r.key.startsWith('label/'))!;
    const forged = ['__proto__', 'constructor', 'prototype'].map((word, i) => ({
      ...real,
      key: keyOf.label('HM3D00025', i === 0 ? word : 'HUMAN', i === 1 ? `n1|${word}` : 'n1|n2', i === 2 ? word : 'alice'),
    }));
    const a = assembleProject([...recs, ...forged]);
    expect(a.bad.map((b) => [b.key, b.reason])).toEqual(
      forged.map((f, i) => [
        f.key,
        `"${['__proto__', 'constructor', 'prototype'][i]}" may not be an id, an agent or a name in a record key: it is a word of JavaScript objects`,
      ]),
    );
    expect(a.project).toEqual(reopen(p));
    expect(Object.getPrototypeOf(a.project!.scenes[0]!.labels)).toBe(Object.prototype);
    // From a team database: the same record is a bad one, counted, not someone else's document.
    expect(readDoc({ _id: forged[0]!.key, order: 0, value: real.value })).toEqual({
      bad: { key: forged[0]!.key, reason: expect.stringMatching(/^"__proto__" may not be/) },
    });
    expect(parseKey('label/prototype-lab/HUMAN/n1|constructors/alice')?.parts).toEqual(['prototype-lab', 'HUMAN', 'n1|constructors', 'alice']);
  });

  it('ids holding / and % make keys that parse back to the same ids', () => {
    const key = keyOf.label('scene/1', 'HUMAN', 'a%2F|b', 'ann/x');
    expect(parseKey(key)).toEqual({ kind: 'label', parts: ['scene/1', 'HUMAN', 'a%2F|b', 'ann/x'] });
  });

  it('every record lands in the same bucket and scope whether its key is parsed or read as it is', () => {
    const odd = [
      keyOf.label('scene/1', 'HUMAN', 'a%2F|b', 'ann/x'),
      keyOf.node('50%', 'n/1'),
      'node/S%2fX/n',
      'label/S/HUMAN/a|b',
      'node/S',
      'toString/x',
      '',
      'project',
      'scene/',
      'qaitem/Q1',
      'review/Q%2F1/ann',
      'qaadjudication/Q1',
      'profile/HUMAN',
    ];
    for (const key of [...projectRecords(house()).map((r) => r.key), ...odd]) {
      const parsed = parseKey(key);
      expect(bucketOfKey(key), key).toBe(parsed ? bucketOf(parsed) : null);
      expect(scopeOfKey(key), key).toBe(parsed ? scopeOf(parsed) : null);
    }
  });

  it('assembled a part at a time (a reload reads pages of buckets), the project is the one assembled at once; a late record of an assembled scene is laid over it', () => {
    const p = house();
    const recs = projectRecords(p);
    const byBucket = new Map<string, Rec[]>();
    for (const r of recs) byBucket.set(bucketOfKey(r.key)!, [...(byBucket.get(bucketOfKey(r.key)!) ?? []), r]);
    const inParts = (parts: Rec[][]) => {
      const assembly = new ProjectAssembly();
      for (const part of parts) completed(assembly.add(part));
      return assembly.finish();
    };
    // Buckets in key order ('qa/…' < 'scene/…' < 'top'), one part each, as the pages bring them.
    const parts = [...byBucket.keys()].sort().map((b) => byBucket.get(b)!);
    expect(stored(inParts(parts).project!)).toEqual(stored(assembleProject(recs).project!));
    // A record of the first scene found again in a later part (a row written in the wrong bucket):
    // the node it names is renamed there, as a change of that record would rename it.
    const node = recs.find((r) => r.key.startsWith('node/HM3D00025/'))!;
    const late = { ...node, value: { ...(node.value as object), name: 'Renamed late' } };
    const withLate = inParts([...parts, [late]]);
    const nodes = withLate.project!.scenes.find((sc) => sc.id === 'HM3D00025')!.graph.nodes;
    expect(nodes.find((n) => n.id === (node.value as { id: string }).id)!.name).toBe('Renamed late');
    expect(nodes).toHaveLength(p.scenes[0]!.graph.nodes.length);
    expect(withLate.bad).toEqual([]);
  });

  it('a label decision changes one record, whatever the number of scenes', () => {
    for (const n of [2, 200]) {
      const base = readRelease(releaseFiles(Array.from({ length: n }, (_, i) => houseScene(`S${i}`)))).project!;
      const [from, to] = [base.scenes[0]!.graph.edges[0]!.from, base.scenes[0]!.graph.edges[0]!.to];
      const next = withScene(base, 'S0', (s) => setLabel(s, 'WHEELCHAIR', from, to, label(false, 'alice', '2026-11-23T10:00:00Z', 'sill')));
      const changes = diffProjects(base, next);
      expect(changes.map((c) => c.key)).toEqual([keyOf.label('S0', 'WHEELCHAIR', `${from}|${to}`, 'alice')]);
    }
  });
});

describe('labels by several annotators', () => {
  const seg = () => {
    const e = house().scenes[0]!.graph.edges[0]!;
    return { from: e.from, to: e.to, key: `${e.from}|${e.to}` };
  };

  it('two annotators who disagree are both kept, the segment is disputed until an adjudicator decides', () => {
    const { from, to, key } = seg();
    let p = house();
    p = withScene(p, 'HM3D00025', (s) => setLabel(s, 'WHEELCHAIR', from, to, label(true, 'alice', '2026-11-23T10:00:00Z')));
    p = withScene(p, 'HM3D00025', (s) => setLabel(s, 'WHEELCHAIR', from, to, label(false, 'bob', '2026-11-23T10:05:00Z', 'step')));
    const scene = reopen(p).scenes[0]!;
    expect(Object.keys(scene.votes!.WHEELCHAIR![key]!).sort()).toEqual(['alice', 'bob']);
    expect(labelDisputes(scene).map((d) => [d.agent, d.seg, d.votes.map(([a]) => a)])).toEqual([['WHEELCHAIR', key, ['alice', 'bob']]]);
    // The earliest named label stays in force while they disagree.
    expect(scene.labels.WHEELCHAIR![key]!.annotator).toBe('alice');
    const decided = adjudicate(scene, 'WHEELCHAIR', key, {
      label: label(false, 'carol', '2026-11-23T11:00:00Z', 'step 6 cm'),
      by: 'carol',
      at: '2026-11-23T11:00:00Z',
    });
    expect(labelDisputes(decided)).toEqual([]);
    expect(decided.labels.WHEELCHAIR![key]!.traversable).toBe(false);
  });

  it('annotators who agree are no dispute, and a named label replaces an unnamed release label without one', () => {
    const { from, to, key } = seg();
    let p = house();
    const unnamed = p.scenes[0]!.labels.HUMAN?.[key];
    expect(unnamed?.annotator ?? '').toBe('');
    p = withScene(p, 'HM3D00025', (s) => setLabel(s, 'HUMAN', from, to, label(!unnamed!.traversable, 'alice', '2026-11-23T10:00:00Z')));
    p = withScene(p, 'HM3D00025', (s) => setLabel(s, 'HUMAN', from, to, label(!unnamed!.traversable, 'bob', '2026-11-23T10:01:00Z')));
    const scene = reopen(p).scenes[0]!;
    expect(labelDisputes(scene)).toEqual([]);
    expect(scene.labels.HUMAN![key]!.annotator).toBe('bob');
    expect(scene.labels.HUMAN![key]!.traversable).toBe(!unnamed!.traversable);
  });
});

describe('changes applied as records', () => {
  it('undoing one change leaves another made meanwhile (another tab) in place', () => {
    const base = house();
    const [e0, e1] = base.scenes[0]!.graph.edges;
    const mine = withScene(base, 'HM3D00025', (s) => setLabel(s, 'SWEEPER', e0!.from, e0!.to, label(false, 'alice', 't1', 'rug')));
    const myStep = diffProjects(base, mine);
    // Another tab labels another agent meanwhile; its change arrives here.
    const theirs = diffProjects(
      base,
      withScene(base, 'HM3D00025', (s) => setLabel(s, 'WHEELCHAIR', e1!.from, e1!.to, label(true, 'alice', 't2'))),
    );
    const both = applyChanges(
      mine,
      theirs.map((c) => ({ key: c.key, after: c.after })),
    ).project;
    const undone = applyChanges(
      both,
      myStep.map((c) => ({ key: c.key, after: c.before })),
    ).project;
    expect(undone.scenes[0]!.labels.SWEEPER?.[`${e0!.from}|${e0!.to}`]?.note).not.toBe('rug');
    expect(undone.scenes[0]!.labels.WHEELCHAIR?.[`${e1!.from}|${e1!.to}`]?.annotator).toBe('alice');
  });

  it('a scene added by a change takes its stored place; one removed goes', () => {
    const base = house();
    const without = { ...base, scenes: [base.scenes[1]!] };
    const back = applyChanges(
      without,
      diffProjects(without, base).map((c) => ({ key: c.key, after: c.after })),
    ).project;
    expect(back.scenes.map((s) => s.id)).toEqual(['HM3D00025', 'HM3D00033']);
    const gone = applyChanges(
      base,
      diffProjects(base, without).map((c) => ({ key: c.key, after: c.after })),
    ).project;
    expect(gone.scenes.map((s) => s.id)).toEqual(['HM3D00033']);
  });

  it('reviews of one item by two reviewers are two records, and the item status follows them', () => {
    let p = house();
    const item = {
      ...createWrittenItem([], { sceneId: 'HM3D00025', author: 'alice', createdAt: 't0' }),
      status: 'pending' as const,
      requiredReviews: 2,
      question: 'Is there a stair?',
    };
    p = { ...p, qa: { ...p.qa, items: [item] } };
    const r1 = addReview(item, { reviewer: 'bob', verdict: 'accept', comment: '', timeMs: 1, at: 't1' });
    const r2 = addReview(r1, { reviewer: 'carol', verdict: 'reject', reason: 'hallucinated', comment: '', timeMs: 1, at: 't2' });
    const recs = projectRecords({ ...p, qa: { ...p.qa, items: [r2] } });
    expect(recs.filter((r) => r.key.startsWith('review/')).map((r) => r.key)).toEqual([keyOf.review(item.id, 'bob'), keyOf.review(item.id, 'carol')]);
    expect(assembleProject(recs).project!.qa.items[0]!.status).toBe('adjudicate');
  });
});

describe('bad stored records', () => {
  it('a damaged record is reported by key and set aside; the rest of the project opens', () => {
    const p = house();
    const recs: Rec[] = projectRecords(p).map((r) =>
      r.key === keyOf.node('HM3D00025', p.scenes[0]!.graph.nodes[0]!.id) ? { ...r, value: { id: 'x', position: 'here' } } : r,
    );
    const a = assembleProject(recs);
    expect(a.bad.map((b) => b.key)).toEqual([keyOf.node('HM3D00025', p.scenes[0]!.graph.nodes[0]!.id)]);
    expect(a.project!.scenes[0]!.graph.nodes).toHaveLength(p.scenes[0]!.graph.nodes.length - 1);
    expect(a.project!.scenes[1]).toEqual(reopen(p).scenes[1]);
  });

  it('a label filed under another annotator than its own is refused', () => {
    const p = house();
    const e = p.scenes[0]!.graph.edges[0]!;
    const forged: Rec = { key: keyOf.label('HM3D00025', 'HUMAN', `${e.from}|${e.to}`, 'alice'), value: label(false, 'bob', 't'), order: 0 };
    expect(assembleProject([...projectRecords(p), forged]).bad.map((b) => b.key)).toEqual([forged.key]);
  });

  it('records whose scene has not arrived wait as orphans instead of being lost', () => {
    const p = house();
    const recs = projectRecords(p).filter((r) => r.key !== keyOf.scene('HM3D00033'));
    const a = assembleProject(recs);
    expect(a.project!.scenes.map((s) => s.id)).toEqual(['HM3D00025']);
    expect(a.orphans.length).toBeGreaterThan(0);
    expect(a.orphans.every((k) => k.includes('/HM3D00033'))).toBe(true);
  });

  it('a project written by a newer Traversa is refused, not damaged', () => {
    const recs = projectRecords(house()).map((r) => (r.key === 'project' ? { ...r, value: { ...(r.value as object), schemaVersion: 99 } } : r));
    expect(assembleProject(recs)).toMatchObject({ project: null, message: expect.stringContaining('newer Traversa') });
  });
});

describe("deleting a node rewrites no one else's labels (issue 24 §3)", () => {
  it('only the node, its edges and the labels of its segments change; the other labels keep their records', async () => {
    const { deleteNodes } = await import('../../../../src/core/graphEdit.ts');
    const before = house();
    const scene = before.scenes[0]!;
    const victim = scene.graph.nodes[0]!.id;
    const after = { ...before, scenes: [deleteNodes(scene, [victim]), ...before.scenes.slice(1)] };
    const changes = diffProjects(before, after);
    const labelChanges = changes.filter((c) => c.key.startsWith('label/'));
    expect(labelChanges.length).toBeGreaterThan(0);
    // Every label change is a deletion of a segment the node was on; none is a rewrite of a label that stays.
    for (const c of labelChanges) {
      expect(c.after, c.key).toBeUndefined();
      expect(parseKey(c.key)!.parts[2]!.split('|')).toContain(victim);
    }
    // Assembled from the records as they are now stored (the untouched labels with their old order), the project is the same.
    const stored = new Map(projectRecords(before).map((r) => [r.key, r]));
    for (const c of changes) {
      if (c.after) stored.set(c.key, c.after);
      else stored.delete(c.key);
    }
    const reassembled = assembleProject([...stored.values()]).project!;
    expect(nonEmpty(reassembled.scenes[0]!.labels.WHEELCHAIR ?? {})).toEqual(nonEmpty(after.scenes[0]!.labels.WHEELCHAIR ?? {}));
  });
});

describe('an edit is diffed once', () => {
  it('the same two versions give the same change list, however many ask (history, storage, the lead check)', () => {
    const a = emptyProject('house');
    const b = { ...a, name: `${a.name} renamed` };
    const first = diffProjects(a, b);
    expect(first.map((c) => c.key)).toEqual(['project']);
    expect(diffProjects(a, b)).toBe(first);
    expect(completed(diffProjectsSteps(a, b))).toBe(first);
    // Another pair is diffed afresh.
    const c = { ...b, name: 'third' };
    expect(diffProjects(a, c)).not.toBe(first);
    expect(diffProjects(a, c)[0]!.after!.value).toMatchObject({ name: 'third' });
  });
});
