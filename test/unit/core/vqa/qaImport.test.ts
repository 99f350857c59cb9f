import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyProject, type Project } from '../../../../src/core/project.ts';
import { checkQaItems } from '../../../../src/core/vqa/checks.ts';
import type { QaItem } from '../../../../src/core/vqa/item.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { applyCapnavQaImport } from '../../../../src/core/vqa/capnav.ts';
import { readCapnavQaItems } from '../../../../src/formats/qa/capnavItems.ts';
import { readGeneratedItems } from '../../../../src/formats/qa/generated.ts';
import { blocking, where } from '../../../support/projects.ts';
import { houseScene, Q, releaseFiles } from '../../../support/releaseBuilder.ts';
import { navGraph, sceneOf } from '../../../support/sceneBuilder.ts';
import { CAPNAV_DIR, sharedAvailable } from '../../../support/shared.ts';

const NOW = '2025-04-01T09:00:00Z';

/** A project with one scene (hall – kitchen – living) and an item qa_7 already in it. */
function project(): Project {
  const p = emptyProject();
  const existing: QaItem = {
    id: 'qa_7',
    sceneId: 'HM3D00001',
    question: 'Is the hall lit?',
    answer: { kind: 'yesno', correct: true },
    category: { capability: 'semantic' },
    anchors: { viewpoints: [], marks: [], nodes: [], edges: [] },
    trail: [],
    source: 'written',
    status: 'accepted',
    requiredReviews: 1,
    reviews: [],
    createdAt: NOW,
    author: 'ana',
  };
  return { ...p, scenes: [sceneOf({ id: 'HM3D00001', graph: navGraph(['hall-kitchen', 'kitchen-living']) })], qa: { ...p.qa, items: [existing] } };
}

/** One well-formed generated record; `over` breaks or extends it. */
const record = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  sceneId: 'HM3D00001',
  question: 'How wide is the kitchen door, as seen from the hall?',
  answer: { kind: 'numeric', value: 0.8, unit: 'm', tolerance: 0.1 },
  category: { capability: 'spatial', subcategory: 'DT' },
  anchors: { nodes: ['kitchen'], marks: [{ number: 1, position: { x: 1, y: 0, z: 2 }, label: 'door' }] },
  trail: [
    { title: 'Find the door', text: 'The kitchen door is the one on the left.', kind: 'perception', links: { marks: ['mark_1'] } },
    { text: 'It measures 0.8 m.', kind: 'conclusion' },
  ],
  generator: 'gpt-4o / prompt v3',
  ...over,
});
const json = (path: string, value: unknown) => ({ path, text: JSON.stringify(value, null, 2) });
const read = (files: { path: string; text: string }[], options = {}) => readGeneratedItems(files, project(), { createdAt: NOW, ...options });

describe('importing generated items', () => {
  it("a .json list: items come in pending, generated, numbered after the project's qa_7, with the generator's copy kept", () => {
    const r = read(
      [
        json('gen/batch1.json', [
          record(),
          record({ question: 'Is the hall door open?', answer: { kind: 'yesno', correct: false }, anchors: undefined, trail: [], requiredReviews: 3 }),
        ]),
      ],
      { requiredReviews: 2 },
    );
    expect(r.problems).toEqual([]);
    expect(r.items.map((i) => [i.id, i.status, i.source, i.requiredReviews])).toEqual([
      ['qa_8', 'pending', 'generated', 2],
      ['qa_9', 'pending', 'generated', 3],
    ]);
    const [first] = r.items;
    expect(first!.trail.map((s) => [s.id, s.title, s.origin])).toEqual([
      ['s1', 'Find the door', 'generated'],
      ['s2', '', 'generated'],
    ]);
    expect(first!.anchors.marks).toEqual([{ id: 'mark_1', number: 1, position: { x: 1, y: 0, z: 2 }, label: 'door' }]);
    expect(first!.generated).toEqual({ question: first!.question, answer: first!.answer, trail: first!.trail, generator: 'gpt-4o / prompt v3' });
    // the reviewer's edits must not reach the generator's copy
    expect(first!.generated!.trail).not.toBe(first!.trail);
    expect(first!.generated!.answer).not.toBe(first!.answer);
    expect(first!.createdAt).toBe(NOW);
  });

  it('a wrapped { generator, items } file: the top-level generator fills items that name none', () => {
    const { generator: _g, ...nameless } = record();
    const r = read([json('gen/batch.json', { generator: 'pipeline-7', items: [nameless, record({ question: 'Other?' })] })]);
    expect(r.problems).toEqual([]);
    expect(r.items.map((i) => i.generated!.generator)).toEqual(['pipeline-7', 'gpt-4o / prompt v3']);
  });

  it('a .jsonl file: one item per line, blank lines skipped', () => {
    const text = [JSON.stringify(record()), '', JSON.stringify(record({ question: 'Is the sink dry?' })), '   '].join('\n');
    const r = read([{ path: 'gen/batch.jsonl', text }]);
    expect(r.problems).toEqual([]);
    expect(r.items.map((i) => i.question)).toEqual([record().question, 'Is the sink dry?']);
  });

  it('a malformed file reports every bad record by file and location, and imports nothing', () => {
    const { question: _q, ...noQuestion } = record();
    const r = read([
      json('gen/good.json', [record()]),
      json('gen/bad.json', [
        record(),
        noQuestion,
        record({ question: 'Q3?', answer: { kind: 'maybe' } }),
        record({ question: 'Q4?', sceneId: 'HM3D00099' }),
        record({
          question: 'Q5?',
          anchors: {
            marks: [
              { id: 'm_a', number: 2, position: { x: 0, y: 0, z: 0 } },
              { id: 'm_b', number: 2, position: { x: 1, y: 0, z: 0 } },
            ],
          },
        }),
      ]),
      {
        path: 'gen/bad.jsonl',
        text: [
          JSON.stringify(record({ question: 'L1?' })),
          JSON.stringify(record({ question: 'L2?', trail: [{ text: 'x', kind: 'guess' }] })),
          '',
          '{"sceneId": "HM3D00001", ',
        ].join('\n'),
      },
    ]);
    expect(r.items).toEqual([]);
    expect(where(blocking(r.problems))).toEqual([
      { severity: 'fatal', code: 'schema', file: 'gen/bad.json', location: '/1/question' },
      { severity: 'fatal', code: 'schema', file: 'gen/bad.json', location: '/2/answer/kind' },
      { severity: 'fatal', code: 'qa.unknown-scene', file: 'gen/bad.json', location: '/3/sceneId' },
      { severity: 'fatal', code: 'qa.invalid', file: 'gen/bad.json', location: '/4/anchors/marks/1/number' },
      { severity: 'fatal', code: 'json.malformed', file: 'gen/bad.jsonl', location: expect.stringMatching(/^line 4, column \d+$/) },
      { severity: 'fatal', code: 'schema', file: 'gen/bad.jsonl', location: 'line 2 /trail/0/kind' },
    ]);
    expect(r.problems.find((p) => p.code === 'qa.unknown-scene')!.message).toContain('HM3D00099');
  });

  it('a file that is neither a list nor { items }, or an empty list, is reported', () => {
    expect(where(read([json('gen/x.json', { questions: [] })]).problems)).toEqual([{ severity: 'fatal', code: 'schema', file: 'gen/x.json', location: '' }]);
    expect(where(read([json('gen/x.json', [])]).problems)).toEqual([{ severity: 'warning', code: 'qa.empty', file: 'gen/x.json', location: '' }]);
  });

  it('a record without a generator, here or at the top of the file, is refused', () => {
    const { generator: _g, ...nameless } = record();
    const r = read([json('gen/x.json', { items: [nameless] })]);
    expect(r.items).toEqual([]);
    expect(where(r.problems)).toEqual([{ severity: 'fatal', code: 'schema', file: 'gen/x.json', location: '/items/0/generator' }]);
  });

  it('content problems a reviewer can fix do not block: unknown fields, an MCQ key that is no option, a missing frame, a duplicate question', () => {
    const r = read([
      json('gen/x.json', [
        record({ confidence: 0.9, trail: [{ text: 'Look.', kind: 'perception', score: 1 }] }),
        record({
          question: 'Which chair is on the left?',
          answer: {
            kind: 'mcq',
            options: [
              { key: 'A', text: 'red' },
              { key: 'B', text: 'blue' },
            ],
            correct: 'C',
          },
        }),
        record({ question: ' how WIDE is the kitchen door,  as seen from the hall? ' }),
      ]),
    ]);
    expect(r.items.map((i) => i.id)).toEqual(['qa_8', 'qa_9', 'qa_10']);
    expect(where(r.problems)).toEqual([
      { severity: 'warning', code: 'qa.unknown-field', file: 'gen/x.json', location: '/0/confidence' },
      { severity: 'warning', code: 'qa.unknown-field', file: 'gen/x.json', location: '/0/trail/0/score' },
      { severity: 'error', code: 'answer.key-not-an-option', file: 'gen/x.json', location: '/1/answer/correct' },
      { severity: 'warning', code: 'question.no-reference-frame', file: 'gen/x.json', location: '/1/question' },
      { severity: 'warning', code: 'qa.duplicate-question', file: 'gen/x.json', location: '/2/question' },
    ]);
  });

  it('a viewpoint thumbnail must be an inline image, never a link the studio would fetch', () => {
    const camera = { mode: 'orbit', position: { x: 0, y: 2, z: 0 }, target: { x: 1, y: 0, z: 0 } };
    const r = read([json('gen/x.json', [record({ anchors: { viewpoints: [{ name: 'v', camera, thumbnail: 'https://example.org/pixel.png' }] } })])]);
    expect(r.items).toEqual([]);
    expect(where(r.problems)).toEqual([{ severity: 'fatal', code: 'schema', file: 'gen/x.json', location: '/0/anchors/viewpoints/0/thumbnail' }]);
    const ok = read([json('gen/x.json', [record({ anchors: { viewpoints: [{ name: 'v', camera, thumbnail: 'data:image/jpeg;base64,/9j/4AAQ' }] } })])]);
    expect(ok.items).toHaveLength(1);
  });

  it('two marks with the same number and no ids are one mistake, reported once at the number', () => {
    const marks = [
      { number: 3, position: { x: 0, y: 0, z: 0 } },
      { number: 3, position: { x: 1, y: 0, z: 0 } },
    ];
    const r = read([json('gen/x.json', [record({ anchors: { marks } })])]);
    expect(r.items).toEqual([]);
    expect(where(r.problems)).toEqual([{ severity: 'fatal', code: 'qa.invalid', file: 'gen/x.json', location: '/0/anchors/marks/1/number' }]);
  });

  it('a trail link to a mark the record does not have is an error at the link, not a block', () => {
    const r = read([json('gen/x.json', { items: [record({ trail: [{ text: 'See mark 4.', kind: 'perception', links: { marks: ['mark_4'] } }] })] })]);
    expect(r.items).toHaveLength(1);
    expect(where(r.problems)).toEqual([{ severity: 'error', code: 'ref.missing-mark', file: 'gen/x.json', location: '/items/0/trail/0/links/marks/0' }]);
  });
});

describe('importing a CapNav question file as items to review', () => {
  const QA = 'qa/HM3D00025_QA.json';
  const REASON = 'The hall leads to the stairs. The landing is 0.90 m wide, e.g. wide enough to turn. Then the bedroom door is open.';

  /** The house's graph only: the scene has no questions yet. */
  const graphOnly = () => readRelease(releaseFiles([{ id: 'HM3D00025', graph: houseScene().graph }], { profiles: false })).project!;
  /** The house with its own questions. */
  const withQuestions = () => readRelease(releaseFiles([{ id: 'HM3D00025', graph: houseScene().graph, qa: houseScene().qa }], { profiles: false })).project!;
  const qaFile = (edit: (qa: ReturnType<typeof houseScene>['qa']) => unknown = (qa) => qa) => {
    const qa = houseScene().qa;
    qa[0]!.reason = REASON;
    return json(QA, edit(qa));
  };
  const importInto = (p: Project, ...files: { path: string; text: string }[]) => readCapnavQaItems(files, p, { createdAt: NOW, generator: 'CapNav' });

  it('one pending yes/no item per question, the reason as a generated trail split into sentences, resolved refs as node anchors', () => {
    const r = importInto(graphOnly(), qaFile());
    expect(r.problems).toEqual([]);
    expect(r.items.map((i) => [i.id, i.capnavQuestion, i.question, i.status, i.source])).toEqual([
      ['qa_1', 0, Q.hallToBedroom, 'pending', 'capnav'],
      ['qa_2', 1, Q.kitchenToUpstairs, 'pending', 'capnav'],
      ['qa_3', 2, Q.garage, 'pending', 'capnav'],
    ]);
    const [first, second] = r.items;
    expect(first!.answer).toEqual({ kind: 'yesno', correct: true });
    expect(first!.category).toEqual({ capability: 'spatial', subcategory: 'TP' });
    expect(first!.trail.map((s) => [s.id, s.text, s.origin])).toEqual([
      ['s1', 'The hall leads to the stairs.', 'generated'],
      ['s2', 'The landing is 0.90 m wide, e.g. wide enough to turn.', 'generated'],
      ['s3', 'Then the bedroom door is open.', 'generated'],
    ]);
    expect(first!.generated).toMatchObject({ question: Q.hallToBedroom, generator: 'CapNav' });
    expect(first!.anchors.nodes).toEqual(['node_1', 'node_8']);
    expect(second!.anchors.nodes).toEqual(['node_2', 'node_3', 'node_12']);
    expect(r.sceneQuestions['HM3D00025']!.map((q) => q.text)).toEqual([Q.hallToBedroom, Q.kitchenToUpstairs, Q.garage]);
  });

  it('applying the import gives the scene its questions, so every item stands for one', () => {
    const p = graphOnly();
    const applied = applyCapnavQaImport(p, importInto(p, qaFile()));
    expect(applied.scenes[0]!.questions).toHaveLength(3);
    expect(applied.qa.items).toHaveLength(3);
    expect(checkQaItems(applied).filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('a { "questions": [...] } file reads like a bare list', () => {
    const bare = importInto(graphOnly(), qaFile());
    const wrapped = importInto(
      graphOnly(),
      qaFile((qa) => ({ questions: qa })),
    );
    expect(wrapped.problems).toEqual([]);
    expect(wrapped.items).toEqual(bare.items);
  });

  it('a reference that matches no node is an error at its place and is left out of the anchors', () => {
    const r = importInto(
      graphOnly(),
      qaFile((qa) => {
        qa[0]!.nodes_involved!.end = 'Attic';
        return { questions: qa };
      }),
    );
    expect(where(r.problems)).toEqual([{ severity: 'error', code: 'question.unresolved-ref', file: QA, location: '/questions/0/nodes_involved/end' }]);
    expect(r.items[0]!.anchors.nodes).toEqual(['node_1']);
  });

  it('a file for a scene the project does not have is fatal', () => {
    const r = importInto(graphOnly(), json('qa/HM3D00099_QA.json', houseScene().qa));
    expect(r.items).toEqual([]);
    expect(where(r.problems)).toEqual([{ severity: 'fatal', code: 'qa.unknown-scene', file: 'qa/HM3D00099_QA.json', location: '' }]);
  });

  it("a file whose questions differ from the scene's imports nothing", () => {
    const changed = importInto(
      withQuestions(),
      qaFile((qa) => {
        qa[1]!.question = 'Can [Agent] fly?';
        return qa;
      }),
    );
    expect(changed.items).toEqual([]);
    expect(where(changed.problems)).toEqual([{ severity: 'fatal', code: 'qa.questions-differ', file: QA, location: '/1/question' }]);
    const shorter = importInto(
      withQuestions(),
      qaFile((qa) => qa.slice(0, 2)),
    );
    expect(shorter.items).toEqual([]);
    expect(shorter.problems[0]!.message).toContain('the file has 2 questions, the scene 3');
  });

  it("the scene's own file: items stand for its questions; questions already imported are skipped with a warning", () => {
    const p = withQuestions();
    const once = applyCapnavQaImport(p, importInto(p, qaFile()));
    const partly = { ...once, qa: { ...once.qa, items: once.qa.items.filter((i) => i.capnavQuestion !== 1) } };
    const again = importInto(partly, qaFile());
    expect(again.items.map((i) => [i.id, i.capnavQuestion])).toEqual([['qa_4', 1]]);
    expect(where(again.problems)).toEqual([
      { severity: 'warning', code: 'qa.already-imported', file: QA, location: '/0' },
      { severity: 'warning', code: 'qa.already-imported', file: QA, location: '/2' },
    ]);
    expect(again.sceneQuestions).toEqual({});
  });

  it('files that are not question files are ignored with a warning', () => {
    const r = importInto(graphOnly(), json('graphs/HM3D00025-graph.json', houseScene().graph));
    expect(where(r.problems)).toEqual([{ severity: 'warning', code: 'file.ignored', file: 'graphs/HM3D00025-graph.json', location: '' }]);
  });
});

describe.skipIf(!sharedAvailable(CAPNAV_DIR, 'importing the real CapNav question files as items'))('the real CapNav release', () => {
  it("every scene's question file gives one item per question", () => {
    const scenes = readdirSync(join(CAPNAV_DIR, 'qa'))
      .filter((f) => f.endsWith('_QA.json'))
      .map((f) => f.replace(/_QA\.json$/, ''));
    expect(scenes.length).toBeGreaterThan(0);
    for (const scene of scenes) {
      const file = (path: string) => ({ path, text: readFileSync(join(CAPNAV_DIR, path), 'utf8') });
      const qa = file(`qa/${scene}_QA.json`);
      const raw = JSON.parse(qa.text) as unknown[] | { questions: unknown[] };
      const count = (Array.isArray(raw) ? raw : raw.questions).length;
      const release = readRelease([file(`graphs/${scene}-graph.json`), qa]);
      expect(blocking(release.problems), scene).toEqual([]);
      const r = readCapnavQaItems([qa], release.project!, { createdAt: NOW });
      expect(blocking(r.problems), scene).toEqual([]);
      expect(r.items.length, scene).toBe(count);
      expect(
        r.items.map((i) => i.capnavQuestion),
        scene,
      ).toEqual([...Array(count).keys()]);
    }
  });
});
