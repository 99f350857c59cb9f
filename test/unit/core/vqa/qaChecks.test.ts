import { describe, expect, it } from 'vitest';
import { emptyProject, type Project, type Scene } from '../../../../src/core/project.ts';
import {
  checkQaItem,
  checkQaItems,
  checkQaItemsQuickly,
  type QaCheckCache,
  frameDependentWord,
  statesReferenceFrame,
  type QaFinding,
} from '../../../../src/core/vqa/checks.ts';
import type { Answer, QaItem, TrailStep } from '../../../../src/core/vqa/item.ts';
import { DEFAULT_TAXONOMY } from '../../../../src/core/vqa/taxonomy.ts';
import { navGraph, navQuestion, ref, sceneOf } from '../../../support/sceneBuilder.ts';

/** Hall – kitchen – living room, one CapNav question. */
const scene: Scene = sceneOf({
  id: 'HM3D00001',
  graph: navGraph(['hall-kitchen', 'kitchen-living']),
  questions: [navQuestion('Can [Agent] move from the hall to the living room?', ref('hall'), ref('living'))],
});

const step = (links: Partial<TrailStep['links']> = {}): TrailStep => ({
  id: 's1',
  title: 'Look',
  text: 'The kitchen door is open.',
  kind: 'perception',
  origin: 'written',
  links: { viewpoints: [], nodes: [], edges: [], marks: [], ...links },
});

/** A clean, accepted written item: no findings. */
function item(over: Partial<QaItem> = {}): QaItem {
  return {
    id: 'qa_1',
    sceneId: scene.id,
    question: 'Is the kitchen door open?',
    answer: { kind: 'yesno', correct: true },
    category: { capability: 'semantic', subcategory: 'ST' },
    anchors: { viewpoints: [], marks: [], nodes: [], edges: [] },
    trail: [],
    source: 'written',
    status: 'accepted',
    requiredReviews: 1,
    reviews: [],
    createdAt: '2025-01-01T00:00:00Z',
    author: 'ana',
    ...over,
  };
}

const check = (i: QaItem, s: Scene | null = scene) => checkQaItem(i, { scene: s ?? undefined, taxonomy: DEFAULT_TAXONOMY });
const mcq = (options: [string, string][], correct: string): Answer => ({ kind: 'mcq', options: options.map(([key, text]) => ({ key, text })), correct });
/** Findings reduced to what the editor uses to place the cursor. */
const at = (fs: QaFinding[]) => fs.map((f) => [f.severity, f.code, f.field]);

describe('a clean item', () => {
  it('has nothing to report, and findings name the item', () => {
    expect(check(item())).toEqual([]);
    const [f] = check(item({ id: 'qa_7', question: '  ' }));
    expect(f).toMatchObject({ itemId: 'qa_7', severity: 'error', code: 'question.empty', field: 'question' });
  });
});

describe('answers', () => {
  it('a multiple-choice key that is not among the options is an error on answer.correct', () => {
    const fs = check(
      item({
        answer: mcq(
          [
            ['A', 'the sofa'],
            ['B', 'the table'],
          ],
          'C',
        ),
      }),
    );
    expect(at(fs)).toEqual([['error', 'answer.key-not-an-option', 'answer.correct']]);
    expect(fs[0]!.message).toContain('"C"');
  });

  it("two options with the same key: an error on the second one's key", () => {
    expect(
      at(
        check(
          item({
            answer: mcq(
              [
                ['A', 'the sofa'],
                ['A', 'the table'],
              ],
              'A',
            ),
          }),
        ),
      ),
    ).toEqual([['error', 'answer.duplicate-option', 'answer.options.1.key']]);
  });

  it("two options saying the same thing, ignoring case and spacing: an error on the later one's text", () => {
    const fs = check(
      item({
        answer: mcq(
          [
            ['A', 'The  Sofa'],
            ['B', 'the table'],
            ['C', ' the sofa '],
          ],
          'B',
        ),
      }),
    );
    expect(at(fs)).toEqual([['error', 'answer.duplicate-option', 'answer.options.2.text']]);
    expect(fs[0]!.message).toContain('option C says the same as option A');
  });

  it('fewer than two options, or an option without text, is an error', () => {
    expect(at(check(item({ answer: mcq([['A', 'the sofa']], 'A') })))).toEqual([['error', 'answer.too-few-options', 'answer.options']]);
    expect(at(check(item({ answer: mcq([], '') })))).toEqual([
      ['error', 'answer.too-few-options', 'answer.options'],
      ['error', 'answer.key-not-an-option', 'answer.correct'],
    ]);
    expect(
      at(
        check(
          item({
            answer: mcq(
              [
                ['A', 'the sofa'],
                ['B', '  '],
              ],
              'A',
            ),
          }),
        ),
      ),
    ).toEqual([['error', 'answer.empty-option', 'answer.options.1.text']]);
  });

  it('a number without a unit is a warning, except for counting questions', () => {
    const numeric: Answer = { kind: 'numeric', value: 2.4, unit: ' ', tolerance: 0.1 };
    expect(at(check(item({ answer: numeric, category: { capability: 'spatial', subcategory: 'DT' } })))).toEqual([
      ['warning', 'answer.no-unit', 'answer.unit'],
    ]);
    expect(check(item({ answer: { ...numeric, value: 3 }, category: { capability: 'spatial', subcategory: 'CT' } }))).toEqual([]);
    expect(check(item({ answer: { ...numeric, unit: 'm' }, category: { capability: 'spatial', subcategory: 'DT' } }))).toEqual([]);
  });
});

describe('reference frames', () => {
  const frameWarning = (question: string, over: Partial<QaItem> = {}) =>
    check(item({ question, category: { capability: 'spatial', subcategory: 'R/P' }, ...over })).filter((f) => f.code === 'question.no-reference-frame');

  it.each([
    'Is the lamp to the left of the sofa?',
    'Which chair is rightmost?',
    'Which plant is in front?',
    'Is the plant behind?',
    'Which door is the first one?',
    'Is the towel on the left side of the sink vanity?',
    'What do you pass after the kitchen?',
  ])('"%s" says nobody\'s point of view: a warning on the question', (q) => {
    expect(at(frameWarning(q))).toEqual([['warning', 'question.no-reference-frame', 'question']]);
  });

  it.each([
    'As seen from the camera, is the lamp to the left of the sofa?',
    'Facing the door, which chair is rightmost?',
    'Is the plant to your left when you enter the room?',
    'Relative to the sofa, is the plant in front?',
    'In the image, which door is the first one?',
    'Walking along the path, what do you pass after the kitchen?',
  ])('"%s" states a frame: no warning', (q) => {
    expect(frameWarning(q)).toEqual([]);
  });

  it.each([
    'Is the bathroom on the first floor?',
    'Is the towel next to the sink?',
    'Do the two walls meet at a right angle?',
    'How many beds are in the second bedroom?',
    'Is "B" the right answer?',
  ])('"%s" uses the words as names, not relations: no warning', (q) => {
    expect(frameWarning(q)).toEqual([]);
  });

  // "In front of the vanity" is the vanity's own front (an object-centred, allocentric frame),
  // and a misspelt floor or room word after an ordinal is still a name.
  it.each([
    'Is the towel rack in front of the sink vanity?',
    'Is the plant in front of the TV?',
    'Is the bin behind the kitchen island?',
    'First fllor bathroom: is there a grab bar by the toilet?',
    'Is the shower in the second bathrom?',
    'Is the grab bar on the third-flor landing?',
  ])('"%s" is object-relative or names a place: no warning', (q) => {
    expect(frameWarning(q)).toEqual([]);
  });

  it.each([
    ['Which plant is in front?', 'in front'],
    ['Is the lamp behind, or in front of the sofa?', 'behind'],
    ['Is the bin in front of you?', 'in front'],
    ['Is the mug left of the kettle, in front of the sink vanity?', 'left'],
    ['Is the first door on the landing open?', 'first'],
    ['Is the first wall painted?', 'first'],
    ['Is the first flower pot taller?', 'first'],
  ])('"%s": the frame word found is %s', (q, word) => {
    expect(frameDependentWord(q)).toBe(word);
  });

  it('before / after order events in time in a temporal question, but not "left" or "right"', () => {
    const temporal = { category: { capability: 'temporal', subcategory: 'S/M' } };
    expect(frameWarning('Was the door open before the agent entered the kitchen?', temporal)).toEqual([]);
    expect(frameWarning('What did the agent see after turning around?', temporal)).toEqual([]);
    expect(frameWarning('After entering, was the lamp on the left?', temporal)).toHaveLength(1);
  });

  it('a side word in an option counts; the frame has to be in the question', () => {
    const answer = mcq(
      [
        ['A', 'left of the sofa'],
        ['B', 'behind the sofa'],
      ],
      'A',
    );
    expect(frameWarning('Where is the lamp?', { answer })).toHaveLength(1);
    expect(frameWarning('Where is the lamp, as seen from the door?', { answer })).toEqual([]);
  });

  it('a compass direction states a frame when it relates things, not inside a name', () => {
    expect(frameWarning('Is the lamp left of the sofa in the west wing?')).toHaveLength(1);
    expect(frameWarning('Is the lamp on the left, facing north?')).toEqual([]);
    expect(frameWarning('Is the desk in front of the window on the east side?')).toEqual([]);
  });

  it('the helpers name the word found and recognise the frame phrase', () => {
    expect(frameDependentWord('The chair on the first floor is LEFT of the desk')).toBe('left');
    expect(frameDependentWord('before lunch', { temporal: true })).toBeNull();
    expect(frameDependentWord('before lunch')).toBe('before');
    expect(statesReferenceFrame('viewed from the hallway')).toBe(true);
    expect(statesReferenceFrame('from the agent’s perspective')).toBe(true);
    expect(statesReferenceFrame('is the sofa near the lamp')).toBe(false);
    // "ego" must be a word, not part of one
    expect(statesReferenceFrame('the Lego set')).toBe(false);
  });
});

describe('references into the scene and into the item', () => {
  it('anchors on nodes and edges the graph no longer has are errors at their index; "a|b" edges in either order are found', () => {
    const fs = check(item({ anchors: { viewpoints: [], marks: [], nodes: ['hall', 'garage'], edges: ['e0', 'living|kitchen', 'hall|living'] } }));
    expect(at(fs)).toEqual([
      ['error', 'ref.missing-node', 'anchors.nodes.1'],
      ['error', 'ref.missing-edge', 'anchors.edges.2'],
    ]);
  });

  it('trail links to missing nodes, edges, marks and viewpoints are errors at the link', () => {
    const mark = { id: 'mark_1', number: 1, position: { x: 0, y: 0, z: 0 }, label: 'sofa' };
    const trail = [step({ nodes: ['kitchen'] }), { ...step({ nodes: ['attic'], edges: ['e9'], marks: ['mark_1', 'mark_2'], viewpoints: ['vp_1'] }), id: 's2' }];
    const fs = check(item({ trail, anchors: { viewpoints: [], marks: [mark], nodes: [], edges: [] } }));
    expect(at(fs)).toEqual([
      ['error', 'ref.missing-node', 'trail.1.links.nodes.0'],
      ['error', 'ref.missing-edge', 'trail.1.links.edges.0'],
      ['error', 'ref.missing-mark', 'trail.1.links.marks.1'],
      ['error', 'ref.missing-viewpoint', 'trail.1.links.viewpoints.0'],
    ]);
    expect(fs[2]!.message).toBe('step 2 links mark mark_2, which the item no longer has');
  });

  it('an item about a scene not in the project is an error on sceneId, and its own marks are still checked', () => {
    const fs = check(item({ sceneId: 'HM3D00099', trail: [step({ marks: ['mark_3'], nodes: ['anything'] })] }), null);
    expect(at(fs)).toEqual([
      ['error', 'ref.missing-scene', 'sceneId'],
      ['error', 'ref.missing-mark', 'trail.0.links.marks.0'],
    ]);
  });

  it('a CapNav item whose scene question is gone is an error on capnavQuestion', () => {
    const capnav = (capnavQuestion?: number) =>
      item({
        source: 'capnav',
        question: 'Can [Agent] move from the hall to the living room?',
        category: { capability: 'spatial', subcategory: 'TP' },
        ...(capnavQuestion === undefined ? {} : { capnavQuestion }),
      });
    expect(check(capnav(0))).toEqual([]);
    expect(at(check(capnav(1)))).toEqual([['error', 'ref.missing-question', 'capnavQuestion']]);
    expect(at(check(capnav()))).toEqual([['error', 'ref.missing-question', 'capnavQuestion']]);
  });
});

describe('categories', () => {
  it('an accepted item needs a category; a draft or pending one may go without', () => {
    expect(at(check(item({ category: { capability: '' } })))).toEqual([['error', 'category.missing', 'category.capability']]);
    expect(check(item({ status: 'draft', category: { capability: '' } }))).toEqual([]);
    expect(check(item({ status: 'pending', category: { capability: ' ' } }))).toEqual([]);
  });

  it('a capability the taxonomy lacks: an error once accepted, a warning before', () => {
    expect(at(check(item({ category: { capability: 'social' } })))).toEqual([['error', 'category.unknown', 'category.capability']]);
    expect(at(check(item({ status: 'pending', category: { capability: 'social' } })))).toEqual([['warning', 'category.unknown', 'category.capability']]);
  });

  it('a subcategory of another capability, or an unknown task type, is a warning on that field', () => {
    expect(at(check(item({ category: { capability: 'semantic', subcategory: 'DT' } })))).toEqual([
      ['warning', 'category.unknown-subcategory', 'category.subcategory'],
    ]);
    expect(at(check(item({ category: { capability: 'semantic', taskType: 'juggling' } })))).toEqual([
      ['warning', 'category.unknown-task-type', 'category.taskType'],
    ]);
    expect(check(item({ category: { capability: 'semantic', subcategory: 'CL', taskType: 'risk-assessment' } }))).toEqual([]);
  });
});

describe('checking a whole project', () => {
  it('checks every item against its own scene and the project taxonomy', () => {
    const project: Project = { ...emptyProject(), scenes: [scene] };
    project.qa = {
      ...project.qa,
      items: [item(), item({ id: 'qa_2', sceneId: 'MP3D00002' }), item({ id: 'qa_3', anchors: { viewpoints: [], marks: [], nodes: ['cellar'], edges: [] } })],
    };
    expect(checkQaItems(project).map((f) => [f.itemId, f.code])).toEqual([
      ['qa_2', 'ref.missing-scene'],
      ['qa_3', 'ref.missing-node'],
    ]);
  });

  it('an edit is checked at once against the cache, a large unchecked import is left to the slices, and a new scene or taxonomy checks again', () => {
    const project: Project = { ...emptyProject(), scenes: [scene] };
    const many = Array.from({ length: 600 }, (_, i) => item({ id: `qa_${i + 1}`, question: `Is door ${i} open?` }));
    project.qa = { ...project.qa, items: [...many, item({ id: 'qa_601', sceneId: 'MP3D00002' })] };
    const cache: QaCheckCache = new WeakMap();
    // 601 items, none checked yet: more than the 500 a render may check.
    expect(checkQaItemsQuickly(project, cache)).toBeNull();
    expect(checkQaItemsQuickly(project, cache, 1_000)!.map((f) => f.itemId)).toEqual(['qa_601']);
    // One item changed: checked at once, its new finding reported, the others from the cache.
    const edited: Project = { ...project, qa: { ...project.qa, items: project.qa.items.map((i) => (i.id === 'qa_2' ? { ...i, question: '' } : i)) } };
    expect(checkQaItemsQuickly(edited, cache)!.map((f) => [f.itemId, f.code])).toEqual([
      ['qa_2', 'question.empty'],
      ['qa_601', 'ref.missing-scene'],
    ]);
    // Another scene object (the graph edited) or taxonomy: every item of it is checked again.
    expect(checkQaItemsQuickly({ ...edited, scenes: [{ ...scene }] }, cache)).toBeNull();
    expect(checkQaItemsQuickly({ ...edited, qa: { ...edited.qa, taxonomy: { ...edited.qa.taxonomy } } }, cache)).toBeNull();
  });
});
