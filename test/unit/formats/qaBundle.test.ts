import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emptyProject, PROJECT_SCHEMA_VERSION, type Project } from '../../../src/core/project.ts';
import { capnavItemsForScene } from '../../../src/core/vqa/capnav.ts';
import { checkQaItems } from '../../../src/core/vqa/checks.ts';
import type { QaItem, Review } from '../../../src/core/vqa/item.ts';
import { createWrittenItem, setAnswerFromMeasurement, submitForReview, withTrail } from '../../../src/core/vqa/items.ts';
import { addReview, adjudicate, removalReport } from '../../../src/core/vqa/review.ts';
import { DEFAULT_TAXONOMY } from '../../../src/core/vqa/taxonomy.ts';
import { addStep, editStep } from '../../../src/core/vqa/trail.ts';
import { readRelease } from '../../../src/formats/capnav/read.ts';
import { writeRelease } from '../../../src/formats/capnav/write.ts';
import { exportQaBundle, type QaManifest, type QaRecord } from '../../../src/formats/qa/bundle.ts';
import { readGeneratedItems } from '../../../src/formats/qa/generated.ts';
import { blocked, navEdges, navGraph, navNode, navQuestion, ref, sceneOf, traversable } from '../../support/sceneBuilder.ts';

const AT = '2026-05-01T10:00:00.000Z';
const OPTIONS = { createdAt: '2026-05-02T08:00:00.000Z', appVersion: '0.1.0' };
const THUMB = 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD';
const NASTY = `Which appliance is "tall" & white? <script>alert('x')</script>`;
const REWORDED = 'Can [Agent] get from the kitchen into the living room?';

const review = (reviewer: string, verdict: Review['verdict'], more: Partial<Review> = {}): Review => ({
  reviewer,
  verdict,
  comment: '',
  timeMs: 30_000,
  at: AT,
  ...more,
});
const add = (p: Project, item: QaItem) => {
  p.qa.items.push(item);
  return item;
};
const replace = (p: Project, item: QaItem) => {
  p.qa.items = p.qa.items.map((i) => (i.id === item.id ? item : i));
};

/**
 * A small benchmark in every state review leaves items in: a house with two CapNav questions and
 * a flat; a written MCQ and a measured distance (both accepted, the distance by an adjudicator), a
 * generated item whose trail a reviewer corrected (accepted) and one rejected as hallucinated, a
 * written item waiting for review, and the two CapNav questions as items — one rejected, one
 * reworded and accepted.
 */
function benchmark(): Project {
  const p = emptyProject('Kitchen & stairs "v2"');
  p.qa.taxonomy = { ...DEFAULT_TAXONOMY, taskTypes: [...DEFAULT_TAXONOMY.taskTypes, { id: 'stair-check', name: 'Stair check' }] };
  p.scenes.push(
    sceneOf({
      id: 'HM3D00001',
      graph: {
        nodes: [navNode('hall', 'Hall'), navNode('kitchen', 'Kitchen'), navNode('living', 'Living room'), navNode('landing', 'Landing')],
        edges: navEdges('hall-kitchen', 'kitchen-living', 'living-landing'),
      },
      questions: [
        {
          ...navQuestion('Can [Agent] move from the hall to the landing?', ref('Hall', 'hall'), ref('landing — Landing', 'landing'), [
            ref('Kitchen', 'kitchen'),
          ]),
          id: 'q0',
          reason: 'The hall opens onto the kitchen. Stairs lead up to the landing.',
        },
        {
          ...navQuestion('Can [Agent] move from the kitchen to the living room?', ref('kitchen'), ref('Living room', 'living')),
          id: 'q1',
          sceneType: 'home',
          startDetail: 'by the fridge',
          reason: 'A wide doorway joins them. The floor is level.',
        },
      ],
      // Kitchen → living room: the human can, the wheelchair cannot (every segment labelled), the
      // others have no labels there, so their answer is not decided.
      labels: {
        HUMAN: { 'kitchen|living': traversable() },
        WHEELCHAIR: { 'hall|kitchen': traversable(), 'kitchen|living': blocked('a 0.6 m doorway'), 'living|landing': blocked('stairs') },
      },
    }),
  );
  p.scenes.push(sceneOf({ id: 'MP3D00002', graph: navGraph(['porch-study']) }));

  // qa_1: written multiple choice with a rendered viewpoint and a mark, accepted.
  let mcq = createWrittenItem(p.qa.items, {
    sceneId: 'HM3D00001',
    author: 'dee',
    createdAt: AT,
    question: NASTY,
    category: { capability: 'semantic', subcategory: 'CL' },
    answer: {
      kind: 'mcq',
      options: [
        { key: 'A', text: 'The fridge' },
        { key: 'B', text: 'The oven' },
      ],
      correct: 'A',
    },
  });
  mcq = {
    ...mcq,
    anchors: {
      viewpoints: [{ id: 'vp_1', name: 'kitchen', camera: { mode: 'orbit', position: { x: 1, y: 2, z: 3 }, target: { x: 0, y: 0, z: 0 } }, thumbnail: THUMB }],
      marks: [{ id: 'mark_1', number: 1, position: { x: 0.5, y: 1, z: 0 }, label: 'fridge' }],
      nodes: ['kitchen'],
      edges: [],
    },
  };
  mcq = withTrail(
    mcq,
    addStep([], -1, {
      title: 'Find the fridge',
      text: 'Mark 1 is a tall white "fridge".',
      kind: 'perception',
      links: { viewpoints: ['vp_1'], nodes: [], edges: [], marks: ['mark_1'] },
    }),
  );
  add(p, addReview(submitForReview(mcq), review('ana', 'accept', { comment: 'Fine — the "fridge" <b>is</b> tall.\nOK' })));

  // qa_2: a measured distance in the flat; ana and ben disagree and lee accepts it.
  let measured = createWrittenItem(p.qa.items, {
    sceneId: 'MP3D00002',
    author: 'dee',
    createdAt: AT,
    question: 'How far is the porch door from the study door?',
    category: { capability: 'spatial', subcategory: 'DT' },
    requiredReviews: 2,
  });
  measured = setAnswerFromMeasurement(measured, {
    kind: 'distance',
    value: 2.437,
    points: [
      { x: 0, y: 0, z: 0 },
      { x: 2.437, y: 0, z: 0 },
    ],
  });
  measured = addReview(addReview(submitForReview(measured), review('ana', 'accept')), review('ben', 'reject', { reason: 'wrong-answer' }));
  add(p, adjudicate(measured, 'accept', 'lee', { at: AT, comment: 'measured again' }));

  // qa_3, qa_4: generated items imported as JSON Lines.
  const jsonl = [
    {
      sceneId: 'HM3D00001',
      question: 'Can a wheelchair go from the living room up to the landing?',
      answer: { kind: 'yesno', correct: false },
      category: { capability: 'physical', subcategory: 'CS', taskType: 'affordance' },
      anchors: { nodes: ['living', 'landing'], edges: ['e2'], agent: 'WHEELCHAIR' },
      trail: [
        { title: 'Find the link', text: 'The living room connects to the landing.', kind: 'spatial', links: { nodes: ['living', 'landing'] } },
        { title: 'Check the floor', text: 'There is a ramp.', kind: 'physical' },
        { title: 'Conclude', text: 'So it cannot.', kind: 'conclusion' },
      ],
      generator: 'vlm-7b / prompt v3',
      requiredReviews: 2,
    },
    {
      sceneId: 'HM3D00001',
      question: 'Does the hall have a piano?',
      answer: { kind: 'yesno', correct: true },
      category: { capability: 'semantic', subcategory: 'CL' },
      trail: [],
      generator: 'vlm-7b / prompt v3',
    },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');
  const imported = readGeneratedItems([{ path: 'gen.jsonl', text: jsonl }], p, { createdAt: AT });
  expect(imported.problems.filter((x) => x.severity !== 'warning')).toEqual([]);
  const [gen, hallucinated] = imported.items as [QaItem, QaItem];
  const corrected = withTrail(gen, editStep(gen.trail, 1, { text: 'Eight steps lead up; there is no ramp or lift.' }));
  add(p, addReview(addReview(corrected, review('ana', 'edit-accept')), review('ben', 'accept')));
  add(p, addReview(hallucinated, review('ana', 'reject', { reason: 'hallucinated', comment: 'no piano' })));

  // qa_5: written, waiting for review.
  add(
    p,
    submitForReview(
      createWrittenItem(p.qa.items, {
        sceneId: 'HM3D00001',
        author: 'dee',
        createdAt: AT,
        question: 'Is the hall lit?',
        answer: { kind: 'yesno', correct: true },
        category: { capability: 'semantic', subcategory: 'ST' },
      }),
    ),
  );

  // qa_6, qa_7: the house's CapNav questions; q0 rejected, q1 reworded, its reason corrected, accepted.
  const [q0, q1] = capnavItemsForScene(p, 'HM3D00001', { createdAt: AT, generator: 'CapNav release' }) as [QaItem, QaItem];
  add(p, addReview(q0, review('cy', 'reject', { reason: 'hallucinated' })));
  const reworded = withTrail({ ...q1, question: REWORDED }, editStep(q1.trail, 1, { text: 'The floor is level and 1.2 m wide.' }));
  add(p, addReview(reworded, review('cy', 'edit-accept')));
  return p;
}

function exported(p: Project, options: Parameters<typeof exportQaBundle>[1] = OPTIONS) {
  const result = exportQaBundle(p, options);
  if (!result.ok) throw new Error(`export refused: ${result.errors.map((e) => `${e.itemId} ${e.code}`).join(', ')}`);
  const text = (path: string) => {
    const f = result.files.find((x) => x.path === path);
    if (!f) throw new Error(`${path} was not written (wrote ${result.files.map((x) => x.path).join(', ')})`);
    return f.text;
  };
  const items = JSON.parse(text('qa/items.json')) as { format: string; formatVersion: number; items: QaRecord[] };
  return { ...result, text, items, records: items.items, manifestFile: JSON.parse(text('qa/manifest.json')) as QaManifest };
}

describe('exporting the accepted items as a benchmark bundle', () => {
  it('the fixture is what it says: every review state, no errors on accepted items', () => {
    const p = benchmark();
    expect(p.qa.items.map((i) => `${i.id} ${i.source} ${i.status}`)).toEqual([
      'qa_1 written accepted',
      'qa_2 written accepted',
      'qa_3 generated accepted',
      'qa_4 generated rejected',
      'qa_5 written pending',
      'qa_6 capnav rejected',
      'qa_7 capnav accepted',
    ]);
    expect(checkQaItems(p).filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('exports exactly the accepted items, in project order, with the bundle files laid out', () => {
    const { files, records, items } = exported(benchmark());
    expect(records.map((r) => r.id)).toEqual(['qa_1', 'qa_2', 'qa_3', 'qa_7:HUMAN', 'qa_7:WHEELCHAIR']);
    expect(items).toMatchObject({ format: 'traversa-qa', formatVersion: 1 });
    expect(files.map((f) => f.path)).toEqual(['qa/manifest.json', 'qa/items.json', 'qa/items.jsonl', 'capnav/HM3D00001_QA.json']);
  });

  it('items.json and items.jsonl hold the same records, one per line', () => {
    const { text, records } = exported(benchmark());
    const lines = text('qa/items.jsonl').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual(records);
  });

  it('a record carries the category names, named nodes, trail, reviews, adjudication and whether a person edited it', () => {
    const { records } = exported(benchmark());
    const [mcq, measured, gen, capnav, capnavNo] = records as [QaRecord, QaRecord, QaRecord, QaRecord, QaRecord];
    expect(mcq).toMatchObject({
      source: 'written',
      edited: false,
      category: { capability: 'semantic', capabilityName: 'Semantic', subcategory: 'CL', subcategoryName: 'Classes' },
      anchors: {
        nodes: [{ id: 'kitchen', name: 'Kitchen' }],
        marks: [{ id: 'mark_1', number: 1, label: 'fridge' }],
        viewpoints: [{ id: 'vp_1', thumbnail: THUMB }],
      },
      trail: [{ title: 'Find the fridge', kind: 'perception', origin: 'written', links: { marks: ['mark_1'], viewpoints: ['vp_1'] } }],
      reviews: [{ reviewer: 'ana', verdict: 'accept', timeMs: 30_000, at: AT }],
    });
    expect(mcq).not.toHaveProperty('generator');
    expect(mcq.category).not.toHaveProperty('taskType');

    expect(measured).toMatchObject({
      answer: { kind: 'numeric', value: 2.44, unit: 'm' },
      measurement: { kind: 'distance', value: 2.437 },
      adjudication: { adjudicator: 'lee', decision: 'accept', comment: 'measured again' },
      reviews: [
        { reviewer: 'ana', verdict: 'accept' },
        { reviewer: 'ben', verdict: 'reject', reason: 'wrong-answer' },
      ],
    });

    expect(gen).toMatchObject({
      source: 'generated',
      generator: 'vlm-7b / prompt v3',
      edited: true,
      category: { capability: 'physical', subcategory: 'CS', subcategoryName: 'Constraints', taskType: 'affordance', taskTypeName: 'Action affordance' },
      anchors: {
        nodes: [
          { id: 'living', name: 'Living room' },
          { id: 'landing', name: 'Landing' },
        ],
        edges: ['e2'],
        agent: 'WHEELCHAIR',
      },
    });
    expect(gen.trail.map((s) => s.origin)).toEqual(['generated', 'edited', 'generated']);
    expect(gen.trail[1]).toEqual({
      title: 'Check the floor',
      text: 'Eight steps lead up; there is no ramp or lift.',
      kind: 'physical',
      links: { viewpoints: [], nodes: [], edges: [], marks: [] },
      origin: 'edited',
    });

    // A navigation question: one record per agent the labels decide, [Agent] filled in, answered by the labels.
    expect(capnav).toMatchObject({
      source: 'capnav',
      capnavQuestion: 1,
      question: 'Can HUMAN get from the kitchen into the living room?',
      generator: 'CapNav release',
      edited: true,
      answer: { kind: 'yesno', correct: true },
      anchors: { agent: 'HUMAN' },
      navigation: { item: 'qa_7', agent: 'HUMAN', answerFrom: 'labels' },
    });
    expect(capnavNo).toMatchObject({
      id: 'qa_7:WHEELCHAIR',
      question: 'Can WHEELCHAIR get from the kitchen into the living room?',
      answer: { kind: 'yesno', correct: false },
      anchors: { agent: 'WHEELCHAIR' },
    });
  });

  it('the manifest states versions, the project taxonomy and counts of what was exported', () => {
    const p = benchmark();
    const { manifest, manifestFile } = exported(p);
    expect(manifestFile).toEqual(manifest);
    expect(manifest).toMatchObject({
      format: 'traversa-qa',
      formatVersion: 1,
      createdAt: OPTIONS.createdAt,
      traversa: '0.1.0',
      projectSchemaVersion: PROJECT_SCHEMA_VERSION,
      projectName: 'Kitchen & stairs "v2"',
    });
    expect(manifest.taxonomy).toEqual(p.qa.taxonomy);
    // The CapNav question counts once per agent the labels decide (HUMAN, WHEELCHAIR).
    expect(manifest.counts).toEqual({
      items: 5,
      byScene: { HM3D00001: 4, MP3D00002: 1 },
      byCapability: { semantic: 1, spatial: 3, temporal: 0, physical: 1, general: 0 },
      bySubcategory: {
        semantic: { CL: 1, AT: 0, ST: 0 },
        spatial: { LC: 0, DT: 1, OR: 0, TP: 2, CT: 0, 'R/S': 0, 'R/P': 0, 'R/D': 0 },
        temporal: { MT: 0, 'S/M': 0, 'L/M': 0 },
        physical: { MD: 0, CS: 1, 'M/P': 0, 'E/E': 0 },
        general: {},
      },
      byTaskType: { ...Object.fromEntries(p.qa.taxonomy.taskTypes.map((t) => [t.id, 0])), affordance: 1 },
      byAnswerKind: { mcq: 1, yesno: 3, numeric: 1, freetext: 0 },
      bySource: { written: 2, generated: 1, capnav: 2 },
      edited: 3,
      withTrail: 4,
      trailSteps: 1 + 0 + 3 + 2 + 2,
    });
    expect(manifest.navigation).toEqual({
      items: 1,
      records: 2,
      undecided: ['HUMANOID', 'QUADRUPEDAL', 'SWEEPER'].map((agent) => ({
        item: 'qa_7',
        agent,
        why: expect.stringMatching(new RegExp(`segments? (is|are) not labelled for ${agent}`)) as unknown as string,
      })),
    });
  });

  it('the manifest reviews the whole project: statuses, removal rate and reasons, agreement', () => {
    const p = benchmark();
    const { review } = exported(p).manifest;
    expect(review.items).toBe(7);
    expect(review.byStatus).toEqual({ draft: 0, pending: 1, accepted: 4, rejected: 2, adjudicate: 0 });
    expect(review.removal).toEqual(removalReport(p.qa.items));
    expect(review.removal).toMatchObject({ decided: 6, accepted: 4, rejected: 2, byReason: { hallucinated: 2 } });
    expect(review.removal.rate).toBeCloseTo(1 / 3);
    expect(review.removal.bySource.generated).toEqual({ decided: 2, rejected: 1, rate: 0.5 });
    expect(review.agreement).toMatchObject({ items: 2, unanimous: 1 });
  });

  it('the manifest lists every other file with its UTF-8 size and SHA-256', () => {
    const { manifest, files } = exported(benchmark());
    const others = files.filter((f) => f.path !== 'qa/manifest.json');
    expect(manifest.files).toEqual(
      others.map((f) => ({
        path: f.path,
        bytes: Buffer.byteLength(f.text, 'utf8'),
        sha256: createHash('sha256').update(f.text, 'utf8').digest('hex'),
      })),
    );
  });

  it('the same project exports to the same bytes', () => {
    const a = exported(benchmark()).files,
      b = exported(benchmark()).files;
    expect(b).toEqual(a);
  });

  it('thumbnails are dropped when asked, everything else about the viewpoint kept', () => {
    const { files, records } = exported(benchmark(), { ...OPTIONS, includeThumbnails: false });
    for (const f of files) expect(f.text).not.toContain('data:image/jpeg');
    expect(records[0]!.anchors.viewpoints).toEqual([
      { id: 'vp_1', name: 'kitchen', camera: { mode: 'orbit', position: { x: 1, y: 2, z: 3 }, target: { x: 0, y: 0, z: 0 } } },
    ]);
  });

  it('Set-of-Mark pictures go into the bundle beside their item, named in its record and in the manifest (issue 23 §7)', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const result = exported(benchmark(), { ...OPTIONS, setOfMark: new Map([['qa_1', [{ viewpoint: 'vp_1', png, marksOutside: [2] }]]]) });
    expect(result.records[0]!.setOfMark).toEqual([{ viewpoint: 'vp_1', image: 'set-of-mark/qa_1-1.png', marksOutside: [2] }]);
    expect(result.records.slice(1).every((r) => r.setOfMark === undefined)).toBe(true);
    expect(result.images).toEqual([{ path: 'qa/set-of-mark/qa_1-1.png', bytes: png }]);
    const listed = result.manifestFile.files.find((f) => f.path === 'qa/set-of-mark/qa_1-1.png');
    expect(listed).toEqual({ path: 'qa/set-of-mark/qa_1-1.png', bytes: 7, sha256: createHash('sha256').update(png).digest('hex') });
    // Without pictures, no field and no image.
    expect(exported(benchmark()).images).toEqual([]);
  });

  it('user text with markup, quotes and newlines survives verbatim', () => {
    const { text, records } = exported(benchmark());
    expect(text('qa/items.json')).toContain(`<script>alert('x')</script>`);
    expect(records[0]!.question).toBe(NASTY);
    expect(JSON.parse(text('qa/items.jsonl').split('\n')[0]!).question).toBe(NASTY);
    expect(records[0]!.reviews[0]!.comment).toBe('Fine — the "fridge" <b>is</b> tall.\nOK');
    expect(records[0]!.trail[0]!.text).toBe('Mark 1 is a tall white "fridge".');
  });
});

describe('refusing to export wrong ground truth', () => {
  it('an accepted MCQ whose key is not among its options: refused, listing the finding', () => {
    const p = benchmark();
    const mcq = p.qa.items[0]!;
    replace(p, {
      ...mcq,
      answer: {
        kind: 'mcq',
        options: [
          { key: 'A', text: 'The fridge' },
          { key: 'B', text: 'The oven' },
        ],
        correct: 'Z',
      },
    });
    const result = exportQaBundle(p, OPTIONS);
    expect(result).toEqual({
      ok: false,
      errors: [expect.objectContaining({ severity: 'error', code: 'answer.key-not-an-option', itemId: 'qa_1', field: 'answer.correct' })],
    });
  });

  it('the same error on a pending item does not block, nor do warnings on accepted items', () => {
    const p = benchmark();
    const pending = p.qa.items.find((i) => i.status === 'pending')!;
    replace(p, {
      ...pending,
      answer: {
        kind: 'mcq',
        options: [
          { key: 'A', text: 'yes' },
          { key: 'B', text: 'no' },
        ],
        correct: 'Z',
      },
    });
    const measured = p.qa.items[1]!;
    replace(p, { ...measured, answer: { kind: 'numeric', value: 2.44, unit: '', tolerance: 0.1 } });
    const findings = checkQaItems(p);
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'error', code: 'answer.key-not-an-option', itemId: pending.id }));
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'answer.no-unit', itemId: 'qa_2' }));
    expect(exported(p).records.map((r) => r.id)).toEqual(['qa_1', 'qa_2', 'qa_3', 'qa_7:HUMAN', 'qa_7:WHEELCHAIR']);
  });
});

describe('CapNav question files in the bundle', () => {
  it('hold exactly the accepted CapNav questions, reworded text and corrected reason, as the release writer writes them', () => {
    const p = benchmark();
    const qa = JSON.parse(exported(p).text('capnav/HM3D00001_QA.json')) as Record<string, unknown>[];
    const release = JSON.parse(writeRelease(p).find((f) => f.path === 'qa/HM3D00001_QA.json')!.text) as Record<string, unknown>[];
    expect(qa).toEqual([{ ...release[1], question: REWORDED, reason: 'A wide doorway joins them. The floor is level and 1.2 m wide.' }]);
  });

  it('read back with the CapNav reader to the same questions and references', () => {
    const p = benchmark();
    const graph = writeRelease(p).find((f) => f.path === 'graphs/HM3D00001-graph.json')!;
    const back = readRelease([graph, { path: 'capnav/HM3D00001_QA.json', text: exported(p).text('capnav/HM3D00001_QA.json') }]);
    expect(back.problems.filter((x) => x.severity !== 'warning')).toEqual([]);
    const q1 = p.scenes[0]!.questions[1]!;
    expect(back.project!.scenes[0]!.questions).toEqual([
      {
        ...q1,
        id: 'q0',
        text: REWORDED,
        reason: 'A wide doorway joins them. The floor is level and 1.2 m wide.',
        start: { raw: 'kitchen', nodeId: 'kitchen' },
        end: { raw: 'living', nodeId: 'living' },
      },
    ]);
  });

  it('a scene with no accepted CapNav item gets no question file', () => {
    const p = benchmark();
    p.qa.items = p.qa.items.filter((i) => i.source !== 'capnav' || i.status !== 'accepted');
    expect(
      exported(p)
        .files.map((f) => f.path)
        .filter((path) => path.startsWith('capnav/')),
    ).toEqual([]);
  });
});
