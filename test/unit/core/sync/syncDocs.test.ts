import { describe, expect, it } from 'vitest';
import { setLabel } from '../../../../src/core/labelEdit.ts';
import { adjudicate as adjudicateLabel } from '../../../../src/core/labelVotes.ts';
import type { Label } from '../../../../src/core/labels.ts';
import type { Project } from '../../../../src/core/project.ts';
import { assembleProject } from '../../../../src/core/records/assemble.ts';
import { keyOf } from '../../../../src/core/records/keys.ts';
import { projectRecords } from '../../../../src/core/records/records.ts';
import { docHolds, docToRecord, readDoc, recordToDoc } from '../../../../src/core/sync/docs.ts';
import { createWrittenItem } from '../../../../src/core/vqa/items.ts';
import { addReview, adjudicate as adjudicateItem } from '../../../../src/core/vqa/review.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { withScene } from '../../../../src/state/edits.ts';
import { houseScene, releaseFiles } from '../../../support/releaseBuilder.ts';

const AT = '2026-11-23T10:00:00Z';
const label = (traversable: boolean, annotator: string): Label => ({
  traversable,
  note: traversable ? '' : 'step',
  annotator,
  timestamp: AT,
  source: 'annotator',
});

/** A project with every kind of record: graph, unnamed release labels, two annotators' votes, a decision, a QA item with reviews and an adjudication. */
function fullProject(): Project {
  let p = readRelease(releaseFiles([houseScene('A'), houseScene('B')])).project!;
  const e = p.scenes[0]!.graph.edges[0]!;
  p = withScene(p, 'A', (s) => setLabel(s, 'WHEELCHAIR', e.from, e.to, label(true, 'alice')));
  p = withScene(p, 'A', (s) => setLabel(s, 'WHEELCHAIR', e.from, e.to, label(false, 'bob')));
  p = withScene(p, 'A', (s) => adjudicateLabel(s, 'WHEELCHAIR', `${e.from}|${e.to}`, { label: label(false, 'carol'), by: 'carol', at: AT }));
  const item = { ...createWrittenItem([], { sceneId: 'A', author: 'alice', createdAt: AT }), requiredReviews: 2, question: 'Is there a stair?' };
  let reviewed = addReview(item, { reviewer: 'bob', verdict: 'accept', comment: '', timeMs: 1, at: AT });
  reviewed = addReview(reviewed, { reviewer: 'carol', verdict: 'reject', reason: 'hallucinated', comment: '', timeMs: 1, at: AT });
  reviewed = adjudicateItem(reviewed, 'accept', 'dave', { at: AT });
  return { ...p, qa: { ...p.qa, items: [reviewed] } };
}

/** JSON with keys sorted: what a record holds, whatever order its fields were written in. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );

/** Every field name anywhere in a value, with the path to it. */
function fieldNames(v: unknown, path = '', out: { name: string; path: string; value: unknown }[] = []) {
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (!Array.isArray(v)) out.push({ name: k, path: `${path}.${k}`, value: x });
      fieldNames(x, `${path}.${k}`, out);
    }
  }
  return out;
}
const SECRET_NAME = /(^|[^a-z])(api[_-]?)?key$|apikey|password|passwd|secret|token|authori[sz]ation|credential|cookie/i;
const secretsIn = (docs: unknown[]) =>
  docs.flatMap((d) => fieldNames(d).filter((f) => SECRET_NAME.test(f.name) && f.value !== undefined && f.value !== null && f.value !== ''));

describe('records as CouchDB documents', () => {
  it('a record becomes a document under its key, signed and dated, and reads back as the same record', () => {
    const recs = projectRecords(fullProject());
    const docs = recs.map((r) => recordToDoc(r, 'alice', AT));
    expect(docs[0]).toEqual({ _id: 'project', order: 0, value: recs[0]!.value, author: 'alice', at: AT });
    // As the server hands them back: JSON, with a revision.
    const back = docs.map((d) => docToRecord({ ...(JSON.parse(JSON.stringify(d)) as object), _rev: '1-x' })!);
    const a = assembleProject(back);
    expect(a.bad).toEqual([]);
    const stored = (rs: typeof recs) => rs.map((r) => canonical([r.key, r.order, r.value])).sort();
    expect(stored(projectRecords(a.project!))).toEqual(stored(recs));
    expect(back.every((r, i) => docHolds(docs[i]!, r) && docHolds(JSON.parse(JSON.stringify(docs[i])) as (typeof docs)[0], recs[i]!))).toBe(true);
  });

  it('design documents, checkpoints, deletions and foreign ids are not records; a damaged envelope is reported', () => {
    expect(docToRecord({ _id: '_design/traversa', validate_doc_update: 'function () {}' })).toBeNull();
    expect(docToRecord({ _id: '_local/checkpoint', order: 0, value: {} })).toBeNull();
    expect(docToRecord({ _id: keyOf.scene('A'), _deleted: true })).toBeNull();
    expect(docToRecord({ _id: 'notes/x', order: 0, value: {} })).toBeNull();
    expect(docToRecord(null)).toBeNull();
    expect(readDoc({ _id: keyOf.scene('A'), value: {} })).toEqual({ bad: { key: 'scene/A', reason: 'the document has no numeric order' } });
    expect(readDoc({ _id: keyOf.scene('A'), order: 1 })).toEqual({ bad: { key: 'scene/A', reason: 'the document has no value' } });
  });

  it('content compares as stored: who wrote it does not count, an unset optional field does not either, a changed value or order does', () => {
    const rec = { key: keyOf.label('A', 'HUMAN', 'a|b', 'alice'), value: { ...label(true, 'alice'), question: undefined }, order: 2 };
    const stored = JSON.parse(JSON.stringify(recordToDoc(rec, 'bob', '2020-01-01T00:00:00Z'))) as ReturnType<typeof recordToDoc>;
    expect(docHolds(stored, rec)).toBe(true);
    expect(docHolds(stored, { ...rec, order: 3 })).toBe(false);
    expect(docHolds(stored, { ...rec, value: { ...rec.value, note: 'x' } })).toBe(false);
  });

  it('no document of a full project carries a key, password, token or other secret', () => {
    const docs = projectRecords(fullProject()).map((r) => recordToDoc(r, 'alice', AT));
    expect(docs.length).toBeGreaterThan(50);
    expect(secretsIn(docs)).toEqual([]);
    // The scan itself finds one where there is one, wherever it is nested.
    const planted = recordToDoc({ key: keyOf.project(), value: { name: 'p', judge: { url: 'https://x', apiKey: 'sk-123' } }, order: 0 }, 'alice', AT);
    expect(secretsIn([...docs, planted]).map((f) => f.path)).toEqual(['.value.judge.apiKey']);
    expect(secretsIn([{ _id: 'x', value: { settings: { judge_key: 'k' } } }]).map((f) => f.path)).toEqual(['.value.settings.judge_key']);
  });
});
