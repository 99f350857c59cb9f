import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import { keyOf, RECORD_KIND_NAMES, RECORD_KINDS, recordKey, type KindSpec, type RecordKind } from '../../../../src/core/records/keys.ts';
import { VALIDATE_DOC_UPDATE, teamDesignDoc } from '../../../../src/core/sync/validateDoc.ts';

/** The server's function, evaluated the way pouchdb-server does (`return <source>`). */
type Validate = (newDoc: Record<string, unknown>, oldDoc: unknown, userCtx: { name: string | null; roles: string[]; db?: string }, secObj: unknown) => void;
const validate = new Function(`return ${VALIDATE_DOC_UPDATE}`)() as Validate;

/** alice leads the project (her account carries its lead role); bob is an annotator. */
const LEAD = 'traversa-lead:p';
const SEC = { admins: { names: ['lead'], roles: ['leads'] }, members: { names: ['alice', 'bob'], roles: [LEAD] } };
const as = (name: string | null, roles: string[] = name === 'alice' ? [LEAD] : []) => ({ name, roles, db: 'p' });
const AT = '2026-11-23T10:00:00Z';
const doc = (id: string, value: unknown, author = 'alice', more: Record<string, unknown> = {}) => ({ _id: id, order: 0, value, author, at: AT, ...more });

/** What the server answers: 'ok', or the thrown object's one key and its message. */
function verdict(d: Record<string, unknown>, user = as('alice'), sec: unknown = SEC): string {
  try {
    validate(d, null, user, sec);
    return 'ok';
  } catch (e) {
    const [k, v] = Object.entries(e as Record<string, string>)[0]!;
    return `${k}: ${v}`;
  }
}

const label = (traversable: unknown, annotator: string | null = 'alice') => ({ traversable, note: '', ...(annotator === null ? {} : { annotator }) });
const myLabel = keyOf.label('HM3D00025', 'WHEELCHAIR', 'n1|n2', 'alice');

describe('the validation function as source', () => {
  it('is plain ES5, which CouchDB 3 (SpiderMonkey) and pouchdb-server both run', () => {
    expect(() => parse(`(${VALIDATE_DOC_UPDATE})`, { ecmaVersion: 5 })).not.toThrow();
    expect(teamDesignDoc()).toMatchObject({ _id: '_design/traversa', language: 'javascript', validate_doc_update: VALIDATE_DOC_UPDATE });
  });

  it('knows the same record kinds, with the same number of key parts, as keys.ts', () => {
    const table = /var ARITY = (\{[^}]*\})/.exec(VALIDATE_DOC_UPDATE)![1]!;
    const arity = new Function(`return ${table}`)() as Record<RecordKind, number>;
    for (const [kind, n] of Object.entries(arity) as [RecordKind, number][]) {
      expect(() => recordKey(kind, ...Array<string>(n).fill('x'))).not.toThrow();
      expect(() => recordKey(kind, ...Array<string>(n + 1).fill('x'))).toThrow();
    }
    expect(Object.keys(arity).sort()).toEqual(Object.keys(keyOf).sort());
  });
});

describe('leads and annotators (issue 24 §2)', () => {
  it('an annotator writes her labels and reviews, not the graph, scenes, profiles, taxonomy or decisions of disputes', () => {
    const bob = as('bob');
    expect(verdict(doc(keyOf.label('S', 'HUMAN', 'a|b', 'bob'), label(true, 'bob'), 'bob'), bob)).toBe('ok');
    for (const [key, value] of [
      [keyOf.node('S', 'n1'), { id: 'n1', position: { x: 0, y: 1, z: 2 } }],
      [keyOf.edge('S', 'e1'), { id: 'e1', from: 'a', to: 'b' }],
      [keyOf.scene('S'), { questions: [] }],
      [keyOf.profile('HUMAN'), { name: 'HUMAN' }],
      [keyOf.taxonomy(), {}],
      [keyOf.project(), {}],
      [keyOf.adjudication('S', 'HUMAN', 'a|b'), { label: { traversable: true }, by: 'bob' }],
      [keyOf.qaadjudication('qa_1'), { adjudicator: 'bob' }],
    ] as const) {
      expect(verdict(doc(key, value, 'bob'), bob), key).toMatch(/only a lead of this project changes .*; bob is an annotator here/);
      expect(verdict(doc(key, null, 'bob', { _deleted: true }), bob), `deleting ${key}`).toMatch(/only a lead of this project/);
    }
  });

  it('a lead role counts only in its own database', () => {
    const elsewhere = as('bob', ['traversa-lead:other']);
    expect(verdict(doc(keyOf.scene('S'), { questions: [] }, 'bob'), elsewhere)).toMatch(/bob is an annotator here/);
    expect(verdict(doc(keyOf.scene('S'), { questions: [] }, 'bob'), as('bob', [LEAD]))).toBe('ok');
  });
});

describe('who may write', () => {
  it('server admins and database admins (by name or role) may write anything, even unnamed baseline labels', () => {
    const unnamed = doc(keyOf.label('S', 'HUMAN', 'a|b', ''), label(true, null), 'importer');
    expect(verdict(unnamed, as('root', ['_admin']))).toBe('ok');
    expect(verdict(unnamed, as('lead'))).toBe('ok');
    expect(verdict(unnamed, as('carol', ['leads']))).toBe('ok');
    expect(verdict(doc('anything/at/all', 'text', 'x'), as('root', ['_admin']))).toBe('ok');
  });

  it('a member writes records signed as herself, and nothing signed as anyone else', () => {
    expect(verdict(doc(myLabel, label(true)))).toBe('ok');
    expect(verdict(doc(keyOf.node('S', 'n1'), { id: 'n1', position: { x: 0, y: 1, z: 2 } }))).toBe('ok');
    expect(verdict(doc(keyOf.node('S', 'n1'), { id: 'n1', position: { x: 0, y: 1, z: 2 } }, 'bob'))).toBe(
      `forbidden: node/S/n1: the record is signed as bob, but you are alice`,
    );
    const { author: _author, ...unsigned } = doc(myLabel, label(true));
    expect(verdict(unsigned)).toContain('the record is signed as undefined, but you are alice');
  });

  it('an anonymous writer is asked to sign in', () => {
    expect(verdict(doc(myLabel, label(true)), as(null))).toMatch(/^unauthorized: .*sign in/);
  });
});

describe('personal records', () => {
  it("nobody writes another annotator's label, an unnamed one, or one whose annotator is not the key's", () => {
    expect(verdict(doc(keyOf.label('S', 'HUMAN', 'a|b', 'bob'), label(true, 'bob')))).toBe(
      "forbidden: label/S/HUMAN/a|b/bob: this label is bob's; you are alice",
    );
    expect(verdict(doc(keyOf.label('S', 'HUMAN', 'a|b', ''), label(true, '')))).toContain('unnamed labels (a release baseline) are written by an admin only');
    expect(verdict(doc(myLabel, label(true, 'bob')))).toContain('value.annotator must be alice');
    expect(verdict(doc(myLabel, label(true, null)))).toContain('value.annotator must be alice');
    // The key's author is the annotator as keys.ts files it: trimmed.
    expect(verdict(doc(myLabel, label(true, ' alice ')))).toBe('ok');
  });

  it('an annotator whose name holds a slash writes under the escaped key', () => {
    const key = keyOf.label('S', 'HUMAN', 'a|b', 'team/alice');
    expect(key).toContain('team%2Falice');
    expect(verdict(doc(key, label(true, 'team/alice'), 'team/alice'), as('team/alice'))).toBe('ok');
    expect(verdict(doc(key, label(true, 'team/alice'), 'team'), as('team'))).toContain("this label is team/alice's; you are team");
  });

  it('reviews are their reviewer’s, with a known verdict', () => {
    const mine = keyOf.review('qa-1', 'alice');
    expect(verdict(doc(mine, { reviewer: 'alice', verdict: 'edit-accept', comment: '' }))).toBe('ok');
    expect(verdict(doc(keyOf.review('qa-1', 'bob'), { reviewer: 'bob', verdict: 'accept' }))).toContain("this review is bob's; you are alice");
    expect(verdict(doc(mine, { reviewer: 'bob', verdict: 'accept' }))).toContain('value.reviewer must be alice');
    expect(verdict(doc(mine, { reviewer: 'alice', verdict: 'maybe' }))).toContain('value.verdict must be accept, edit-accept or reject');
  });

  it('adjudications are signed by their adjudicator', () => {
    const key = keyOf.adjudication('S', 'HUMAN', 'a|b');
    expect(verdict(doc(key, { label: label(false), by: 'alice', at: AT }))).toBe('ok');
    expect(verdict(doc(key, { label: label(false), by: 'bob', at: AT }))).toContain('the decision is signed by bob, but you are alice');
    expect(verdict(doc(key, { label: { traversable: 'no' }, by: 'alice', at: AT }))).toContain('value.label.traversable must be true or false');
    expect(verdict(doc(key, { label: label(false), at: AT }))).toContain('value.by must name the adjudicator');
    const qa = keyOf.qaadjudication('qa-1');
    expect(verdict(doc(qa, { adjudicator: 'alice', decision: 'accept', comment: '', at: AT }))).toBe('ok');
    expect(verdict(doc(qa, { adjudicator: 'bob', decision: 'accept', comment: '', at: AT }))).toContain('the decision is signed by bob, but you are alice');
    expect(verdict(doc(qa, { decision: 'accept' }))).toContain('value.adjudicator must name the adjudicator');
  });
});

describe('deletions', () => {
  const del = (id: string) => ({ _id: id, _rev: '1-abc', _deleted: true });

  it('a member deletes shared records and her own labels and reviews, not anyone else’s', () => {
    expect(verdict(del(keyOf.node('S', 'n1')))).toBe('ok');
    expect(verdict(del(keyOf.adjudication('S', 'HUMAN', 'a|b')))).toBe('ok');
    expect(verdict(del(myLabel))).toBe('ok');
    expect(verdict(del(keyOf.review('qa-1', 'alice')))).toBe('ok');
    // An annotator (carol) deletes no one else's labels or reviews; a lead (alice) removes labels with the segment they were on.
    const carol = as('carol');
    expect(verdict(del(keyOf.label('S', 'HUMAN', 'a|b', 'bob')), carol)).toBe(
      'forbidden: label/S/HUMAN/a|b/bob: only bob or a lead may delete this label, not carol',
    );
    expect(verdict(del(keyOf.label('S', 'HUMAN', 'a|b', '')), carol)).toContain('only an admin or a lead may delete an unnamed (baseline) label');
    expect(verdict(del(keyOf.review('qa-1', 'bob')))).toContain('only bob may delete this review');
    expect(verdict(del(keyOf.label('S', 'HUMAN', 'a|b', 'bob')))).toBe('ok');
    expect(verdict(del(keyOf.label('S', 'HUMAN', 'a|b', '')))).toBe('ok');
    expect(verdict(del(keyOf.label('S', 'HUMAN', 'a|b', '')), as('root', ['_admin']))).toBe('ok');
  });

  it('what is not a Traversa record cannot be deleted by a member either', () => {
    expect(verdict(del('notes/x'))).toContain('not a Traversa record key');
  });
});

describe('malformed records are refused, naming the key', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown kind', doc('notes/x', {}), 'notes/x: not a Traversa record key (unknown kind "notes")'],
    ['a design document', doc('_design/x', {}), 'not a Traversa record key'],
    ['too few key parts', doc('label/S/HUMAN/alice', label(true)), 'label/S/HUMAN/alice: a label key has 4 parts after the kind, not 3'],
    ['too many key parts', doc('scene/a/b', { questions: [] }), 'a scene key has 1 parts after the kind, not 2'],
    ['order not a number', doc(myLabel, label(true), 'alice', { order: '3' }), 'order must be a number'],
    ['no time', doc(myLabel, label(true), 'alice', { at: undefined }), 'at must be the time of writing'],
    ['value not an object', doc(myLabel, [true]), 'value must be an object'],
    ['label without a verdict', doc(myLabel, label('yes')), 'value.traversable must be true or false'],
    ['node without a position', doc(keyOf.node('S', 'n1'), { id: 'n1' }), 'node/S/n1: value.position must have numeric x, y and z'],
    ['node under another id', doc(keyOf.node('S', 'n1'), { id: 'n2', position: { x: 0, y: 0, z: 0 } }), "value.id must be the key's node id n1"],
    ['edge without ends', doc(keyOf.edge('S', 'e1'), { id: 'e1', from: 'n1' }), 'value.from and value.to must be node ids'],
    ['scene without questions', doc(keyOf.scene('S'), { questions: 'none' }), 'value.questions must be a list'],
    ['QA item under another id', doc(keyOf.qaitem('qa-1'), { id: 'qa-2' }), "value.id must be the key's item id qa-1"],
    ['profile under another name', doc(keyOf.profile('WHEELCHAIR'), { name: 'HUMAN' }), "value.name must be the key's profile name WHEELCHAIR"],
    // Issue 25 §2: words of JavaScript objects, as an agent, a node of a segment, a scene id.
    [
      'a label for agent __proto__',
      doc(keyOf.label('S', '__proto__', 'n1|n2', 'alice'), label(true)),
      '"__proto__" may not be an id, an agent or a name in a record key',
    ],
    ['a segment ending at node constructor', doc(keyOf.label('S', 'HUMAN', 'n1|constructor', 'alice'), label(true)), '"constructor" may not be'],
    ['a node of scene prototype', doc(keyOf.node('prototype', 'n1'), { id: 'n1', position: { x: 0, y: 0, z: 0 } }), '"prototype" may not be'],
  ];
  for (const [what, d, reason] of cases) {
    it(what, () => {
      expect(verdict(d)).toMatch(new RegExp(`^forbidden: .*${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    });
  }

  it('well-formed records of every kind pass', () => {
    const ok: Record<string, unknown>[] = [
      doc(keyOf.project(), { schemaVersion: 3, name: 'p' }),
      doc(keyOf.taxonomy(), { capabilities: [] }),
      doc(keyOf.profile('HUMAN'), { name: 'HUMAN' }),
      doc(keyOf.scene('S'), { questions: [] }),
      doc(keyOf.edge('S', 'e1'), { id: 'e1', from: 'n1', to: 'n2' }),
      doc(keyOf.qaitem('qa-1'), { id: 'qa-1' }),
      // Words that merely contain one of those are names like any other.
      doc(keyOf.label('prototype-lab', 'HUMAN', 'n1|constructors', 'alice'), label(true)),
    ];
    for (const d of ok) expect(verdict(d), d._id as string).toBe('ok');
  });
});

// Issue 26 §3: the record kinds are one table (RECORD_KINDS); the server's key check, owners and
// lead rules are written from it, so a kind added there is checked by the server as it is keyed.
describe('the server reads the record kinds table', () => {
  for (const kind of RECORD_KIND_NAMES) {
    const spec: KindSpec = RECORD_KINDS[kind];
    it(`${kind}: a key with ${spec.parts.length} parts (${spec.parts.join(', ') || 'none'}) is a ${kind}, one with another count is refused`, () => {
      const parts = spec.parts.map((_, i) => (i === spec.owner ? 'bob' : `x${i}`));
      const wrong = verdict(doc([kind, ...parts, 'extra'].join('/'), {}, 'bob'), as('bob'));
      expect(wrong).toContain(`a ${kind} key has ${spec.parts.length} parts after the kind, not ${spec.parts.length + 1}`);
      const right = verdict(doc(recordKey(kind, ...parts), {}, 'bob'), as('bob'));
      expect(right).not.toContain('parts after the kind');
      // Only leads write a lead's kind; an annotator is told whose work it is, in the table's words.
      if (spec.lead) expect(right).toContain(`only a lead of this project changes ${spec.lead}`);
      else expect(right).not.toContain('only a lead');
      if (spec.owner !== undefined) {
        const others = spec.parts.map((_, i) => (i === spec.owner ? 'carol' : `x${i}`));
        expect(verdict(doc(recordKey(kind, ...others), {}, 'bob'), as('bob'), SEC)).toMatch(/carol's; you are bob/);
      }
    });
  }
});
