import { describe, expect, it } from 'vitest';
import type { QaItem, TrailStep } from '../../../../src/core/vqa/item.ts';
import { QaItemSchema } from '../../../../src/core/vqa/item.ts';
import {
  addOption,
  createWrittenItem,
  removeAnchor,
  setMarkLabel,
  nextItemId,
  removeOption,
  setAnswerFromMeasurement,
  setAnswerKind,
  setCorrectOption,
  setNumeric,
  setOptionText,
} from '../../../../src/core/vqa/items.ts';
import {
  addStep,
  cloneTrail,
  editStep,
  linkStep,
  mergeSteps,
  moveStep,
  nextStepId,
  pruneLinks,
  removeStep,
  splitStep,
  summariseTrailDiff,
  textDiff,
  trailDiff,
  unlinkStep,
  type Segment,
} from '../../../../src/core/vqa/trail.ts';

const noLinks = () => ({ viewpoints: [], nodes: [], edges: [], marks: [] });
const step = (id: string, text: string, origin: TrailStep['origin'] = 'generated', links: Partial<TrailStep['links']> = {}): TrailStep => ({
  id,
  title: `Title ${id}`,
  text,
  kind: 'spatial',
  origin,
  links: { ...noLinks(), ...links },
});

/** A generated three-step trail: find the sofa, find the door, conclude. */
const generated = (): TrailStep[] => [
  step('s1', 'The grey sofa stands by the window.', 'generated', { marks: ['mark_1'] }),
  step('s2', 'The door is 0.70 m wide.', 'generated', { nodes: ['hall'] }),
  step('s3', 'So the wheelchair fits through.'),
];
const texts = (t: readonly TrailStep[]) => t.map((s) => s.text);
const origins = (t: readonly TrailStep[]) => t.map((s) => s.origin);

describe('editing a reasoning trail', () => {
  it('a person adds a written step with a fresh id, anywhere; an impossible position is no change', () => {
    const t = generated();
    const added = addStep(t, 0, { text: 'The hall is lit.' });
    expect(texts(added)[1]).toBe('The hall is lit.');
    expect(added[1]).toMatchObject({ id: 's4', origin: 'written', kind: 'spatial', title: '' });
    expect(addStep(t, -1, { text: 'First.' })[0]!.text).toBe('First.');
    expect(addStep(t, 3)).toBe(t);
    expect(addStep(t, -2)).toBe(t);
    expect(t).toEqual(generated()); // the input is never changed
  });

  it('step ids are never reused within a trail, even after a deletion', () => {
    const t = removeStep(generated(), 2);
    expect(nextStepId(t)).toBe('s3');
    expect(nextStepId(removeStep(generated(), 0))).toBe('s4');
  });

  it('removing and moving steps; out-of-range or same-place moves return the same trail', () => {
    const t = generated();
    expect(texts(removeStep(t, 1))).toEqual([t[0]!.text, t[2]!.text]);
    expect(removeStep(t, 3)).toBe(t);
    const moved = moveStep(t, 2, 0);
    expect(moved.map((s) => s.id)).toEqual(['s3', 's1', 's2']);
    expect(origins(moved)).toEqual(['generated', 'generated', 'generated']); // reordering is not a content change
    expect(moveStep(t, 1, 1)).toBe(t);
    expect(moveStep(t, 0, 5)).toBe(t);
  });

  it('editing a generated step marks it edited; a written step stays written; setting the same value is no edit', () => {
    const t = [...generated(), step('s4', 'Mine.', 'written')];
    const edited = editStep(t, 1, { text: 'The door is 0.80 m wide.' });
    expect(edited[1]).toMatchObject({ text: 'The door is 0.80 m wide.', origin: 'edited', id: 's2' });
    expect(editStep(t, 3, { kind: 'safety' })[3]!.origin).toBe('written');
    expect(editStep(t, 1, { text: t[1]!.text, title: undefined })).toBe(t);
    expect(editStep(t, 9, { text: 'x' })).toBe(t);
  });

  it('splitting a step: the first half keeps id and title, the second is new and untitled, both keep the links', () => {
    const t = generated();
    const split = splitStep(t, 1, 'The door is'.length);
    expect(split.map((s) => [s.id, s.title, s.text, s.origin])).toEqual([
      ['s1', 'Title s1', t[0]!.text, 'generated'],
      ['s2', 'Title s2', 'The door is', 'edited'],
      ['s4', '', '0.70 m wide.', 'edited'], // its words still come from the generator
      ['s3', 'Title s3', t[2]!.text, 'generated'],
    ]);
    expect(split[2]!.links.nodes).toEqual(['hall']);
    split[2]!.links.nodes.push('x');
    expect(split[1]!.links.nodes).toEqual(['hall']); // the halves do not share link lists
  });

  it('splitting a written step gives two written steps; a cut at the very start or end is no split', () => {
    const t = [step('s1', 'Turn left. Then go on.', 'written')];
    expect(origins(splitStep(t, 0, 10))).toEqual(['written', 'written']);
    expect(splitStep(t, 0, 0)).toBe(t);
    expect(splitStep(t, 0, t[0]!.text.length)).toBe(t);
    expect(splitStep(t, 0, 'Turn left.'.length + 1)).not.toBe(t);
  });

  it('merging joins texts with a space, keeps the first id and kind, the first non-empty title and all links', () => {
    const t = generated();
    t[0] = { ...t[0]!, title: '  ' };
    const merged = mergeSteps(t, 0);
    expect(merged).toHaveLength(2);
    expect(merged[0]).toMatchObject({ id: 's1', title: 'Title s2', text: 'The grey sofa stands by the window. The door is 0.70 m wide.', origin: 'edited' });
    expect(merged[0]!.links).toEqual({ ...noLinks(), marks: ['mark_1'], nodes: ['hall'] });
    expect(mergeSteps([step('a', 'x', 'written'), step('b', 'y', 'written')], 0)[0]!.origin).toBe('written');
    expect(mergeSteps(t, 2)).toBe(t); // nothing after the last step
  });

  it('linking and unlinking change the step (generated → edited); a link already there, or not there, is no change', () => {
    const t = generated();
    const linked = linkStep(t, 2, 'edges', 'e3');
    expect(linked[2]).toMatchObject({ origin: 'edited', links: { ...noLinks(), edges: ['e3'] } });
    expect(linkStep(t, 0, 'marks', 'mark_1')).toBe(t);
    expect(unlinkStep(t, 0, 'marks', 'mark_1')[0]).toMatchObject({ origin: 'edited', links: noLinks() });
    expect(unlinkStep(t, 0, 'marks', 'mark_9')).toBe(t);
  });

  it('pruning drops links to deleted marks and nodes without touching origins; nothing to drop is no change', () => {
    const t = generated();
    const pruned = pruneLinks(t, { marks: new Set(), nodes: new Set(['hall']) });
    expect(pruned[0]!.links.marks).toEqual([]);
    expect(origins(pruned)).toEqual(['generated', 'generated', 'generated']);
    expect(pruned[1]).toBe(t[1]); // untouched steps are the same objects
    expect(pruneLinks(t, { marks: new Set(['mark_1']), nodes: new Set(['hall']) })).toBe(t);
  });
});

describe('word-level difference of two texts', () => {
  const join = (segs: Segment[], keep: Segment['kind']) =>
    segs
      .filter((s) => s.kind === 'same' || s.kind === keep)
      .map((s) => s.text)
      .join('');

  it.each([
    ['The door is 0.70 m wide.', 'The door is 0.80 m wide.'],
    ['the cat sat', 'a dog sat'],
    ['Go left, then right.', 'Go right, then left, then stop.'],
    ['', 'New text.'],
    ['Old text.', ''],
    ['same', 'same'],
  ])('joining same + removed gives %j back, same + added gives %j', (a, b) => {
    const d = textDiff(a, b);
    expect(join(d, 'removed')).toBe(a);
    expect(join(d, 'added')).toBe(b);
  });

  it('a number with its decimal point is one word, and punctuation changes show alone', () => {
    expect(textDiff('The door is 0.70 m wide.', 'The door is 0.80 m wide.')).toEqual([
      { kind: 'same', text: 'The door is ' },
      { kind: 'removed', text: '0.70' },
      { kind: 'added', text: '0.80' },
      { kind: 'same', text: ' m wide.' },
    ]);
    expect(textDiff('the room.', 'the room,')).toEqual([
      { kind: 'same', text: 'the room' },
      { kind: 'removed', text: '.' },
      { kind: 'added', text: ',' },
    ]);
  });

  it('two changed words in a row read as one replacement', () => {
    expect(textDiff('the cat sat', 'a dog sat')).toEqual([
      { kind: 'removed', text: 'the cat' },
      { kind: 'added', text: 'a dog' },
      { kind: 'same', text: ' sat' },
    ]);
  });
});

describe('what a reviewer changed in a generated trail', () => {
  it('an untouched trail is all unchanged', () => {
    const t = generated();
    expect(summariseTrailDiff(trailDiff(t, cloneTrail(t)))).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 3, moved: 0 });
  });

  it('added, removed and changed steps, in reading order with the removed step where it stood', () => {
    const gen = generated();
    let cur = editStep(gen, 0, { text: 'The blue sofa stands by the window.', kind: 'perception' });
    cur = linkStep(cur, 0, 'viewpoints', 'vp_1');
    cur = removeStep(cur, 1);
    cur = addStep(cur, 1, { text: 'Hence yes.' });
    const d = trailDiff(gen, cur);
    expect(d.map((x) => [x.kind, x.step.id])).toEqual([
      ['changed', 's1'],
      ['removed', 's2'],
      ['unchanged', 's3'],
      ['added', 's4'],
    ]);
    const changed = d[0]!;
    if (changed.kind !== 'changed') throw new Error('expected a changed step');
    expect(changed.text).toEqual([
      { kind: 'same', text: 'The ' },
      { kind: 'removed', text: 'grey' },
      { kind: 'added', text: 'blue' },
      { kind: 'same', text: ' sofa stands by the window.' },
    ]);
    expect(changed.kindChange).toEqual({ from: 'spatial', to: 'perception' });
    expect(changed.linksAdded.viewpoints).toEqual(['vp_1']);
    expect(changed.linksRemoved).toEqual(noLinks());
    expect(summariseTrailDiff(d)).toEqual({ added: 1, removed: 1, changed: 1, unchanged: 1, moved: 0 });
  });

  it('moving one step marks only that step as moved', () => {
    const gen = [...generated(), step('s4', 'Four.'), step('s5', 'Five.')];
    const d = trailDiff(gen, moveStep(gen, 4, 0));
    expect(d.map((x) => [x.step.id, x.kind === 'unchanged' || x.kind === 'changed' ? x.moved : null])).toEqual([
      ['s5', true],
      ['s1', false],
      ['s2', false],
      ['s3', false],
      ['s4', false],
    ]);
    expect(summariseTrailDiff(d)).toMatchObject({ unchanged: 5, moved: 1 });
  });

  it('deleting a generated step and writing one in its place is one removed and one added, not a change', () => {
    const gen = generated();
    const replaced = addStep(removeStep(gen, 1), 0, { text: 'The door has no threshold.' });
    const d = trailDiff(gen, replaced);
    expect(d.map((x) => [x.kind, x.step.id])).toEqual([
      ['unchanged', 's1'],
      ['added', 's4'],
      ['removed', 's2'],
      ['unchanged', 's3'],
    ]);
    expect(summariseTrailDiff(d)).toEqual({ added: 1, removed: 1, changed: 0, unchanged: 2, moved: 0 });
  });

  it('splitting a step and deleting the next: the second half is added, the deleted step removed (not a change of it)', () => {
    const gen = generated();
    const edited = removeStep(splitStep(gen, 0, gen[0]!.text.indexOf(' ') + 1), 2);
    const d = trailDiff(gen, edited);
    expect(d.map((x) => [x.kind, x.step.id])).toEqual([
      ['changed', 's1'],
      ['added', 's4'],
      ['removed', 's2'],
      ['unchanged', 's3'],
    ]);
  });

  it('a split at an offset outside the text is refused', () => {
    const gen = generated();
    expect(splitStep(gen, 0, -3)).toBe(gen);
    expect(splitStep(gen, 0, 1.5)).toBe(gen);
  });

  it('a trail whose ids were reassigned still lines up by position', () => {
    const gen = generated();
    const renamed = gen.map((s, i) => ({ ...s, id: `x${i}` }));
    expect(summariseTrailDiff(trailDiff(gen, renamed))).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 3, moved: 0 });
  });
});

describe("editing an item's answer", () => {
  const base = (): QaItem =>
    createWrittenItem([{ id: 'qa_4' }, { id: 'qa_12' }, { id: 'legacy' }], {
      sceneId: 'HM3D00001',
      author: 'ana',
      createdAt: '2025-01-01T00:00:00Z',
      question: 'How wide is the door?',
    });

  it('new items are numbered one above the highest qa_<n>, never reusing a number', () => {
    expect(base().id).toBe('qa_13');
    expect(nextItemId([])).toBe('qa_1');
    expect(nextItemId([{ id: 'qa_3' }, { id: 'qa_10' }, { id: 'qa_x' }])).toBe('qa_11');
  });

  it('changing the kind carries over what translates', () => {
    const mcq = setCorrectOption(setOptionText(setOptionText(setAnswerKind(base(), 'mcq'), 'A', 'about 0.7 m'), 'B', '2 m'), 'B');
    expect(setAnswerKind(mcq, 'freetext').answer).toEqual({ kind: 'freetext', reference: '2 m' });
    expect(setAnswerKind(mcq, 'numeric').answer).toEqual({ kind: 'numeric', value: 2, unit: '', tolerance: 0.1 });
    const numeric = setNumeric(setAnswerKind(base(), 'numeric'), { value: 0.7, unit: ' m ' });
    expect(numeric.answer).toEqual({ kind: 'numeric', value: 0.7, unit: 'm', tolerance: 0.1 });
    expect(setAnswerKind(numeric, 'freetext').answer).toEqual({ kind: 'freetext', reference: '0.7 m' });
    expect(setAnswerKind(setAnswerKind(base(), 'yesno'), 'freetext').answer).toEqual({ kind: 'freetext', reference: 'yes' });
    expect(setAnswerKind({ ...base(), answer: { kind: 'freetext', reference: 'No, it is locked' } }, 'yesno').answer).toEqual({
      kind: 'yesno',
      correct: false,
    });
    expect(setAnswerKind(numeric, 'numeric')).toBe(numeric);
    expect(QaItemSchema.safeParse(setAnswerKind(mcq, 'yesno')).success).toBe(true);
  });

  it('options: added with the next free key; the correct key must be an option; removing the correct one moves the key', () => {
    const mcq = addOption(setAnswerKind(base(), 'mcq'), 'the hall');
    expect(mcq.answer).toMatchObject({ options: [{ key: 'A' }, { key: 'B' }, { key: 'C', text: 'the hall' }], correct: 'A' });
    expect(setCorrectOption(mcq, 'Z')).toBe(mcq);
    expect(setCorrectOption(mcq, 'C').answer).toMatchObject({ correct: 'C' });
    expect(removeOption(setCorrectOption(mcq, 'C'), 'C').answer).toMatchObject({ correct: 'A' });
    expect(setOptionText(mcq, 'C', 'the hall')).toBe(mcq);
  });

  it('numbers: non-finite values and negative tolerances are refused', () => {
    const numeric = setNumeric(setAnswerKind(base(), 'numeric'), { value: 1.5, unit: 'm', tolerance: 0.05 });
    expect(setNumeric(numeric, { value: Number.NaN })).toBe(numeric);
    expect(setNumeric(numeric, { tolerance: -1 })).toBe(numeric);
    expect(setNumeric(numeric, { value: Infinity, tolerance: 0.2 }).answer).toEqual({ kind: 'numeric', value: 1.5, unit: 'm', tolerance: 0.2 });
    const text = base();
    expect(setNumeric(text, { value: 3 })).toBe(text); // not a numeric answer: nothing to set
  });

  it('a measurement fills the answer in metres rounded to the centimetre and stays as evidence', () => {
    const points = [
      { x: 0, y: 0, z: 0 },
      { x: 0.8347, y: 0, z: 0 },
    ];
    const tight = setNumeric(setAnswerKind(base(), 'numeric'), { tolerance: 0.02 });
    const filled = setAnswerFromMeasurement(tight, { kind: 'width', value: 0.8347, points });
    expect(filled.answer).toEqual({ kind: 'numeric', value: 0.83, unit: 'm', tolerance: 0.02 });
    expect(filled.measurement).toEqual({ kind: 'width', value: 0.8347, points });
    expect(filled.measurement!.points[1]).not.toBe(points[1]);
    expect(setAnswerFromMeasurement(base(), { kind: 'height', value: 2.005001, points }).answer).toEqual({
      kind: 'numeric',
      value: 2.01,
      unit: 'm',
      tolerance: 0.1,
    });
  });
});

describe('anchors', () => {
  it('removing a mark or a viewpoint removes the trail links to it in the same edit; naming a mark', () => {
    const base = createWrittenItem([], { sceneId: 'S', author: 'a', createdAt: 't' });
    const item: QaItem = {
      ...base,
      anchors: {
        ...base.anchors,
        marks: [
          { id: 'mark_1', number: 1, position: { x: 0, y: 0, z: 0 }, label: '' },
          { id: 'mark_2', number: 2, position: { x: 1, y: 0, z: 0 }, label: '' },
        ],
        viewpoints: [{ id: 'vp_1', name: 'View 1', camera: { mode: 'orbit', position: { x: 0, y: 1, z: 0 }, target: { x: 0, y: 0, z: 0 } } }],
      },
      trail: [step('s1', 'See mark 1.', 'written', { marks: ['mark_1', 'mark_2'], viewpoints: ['vp_1'] })],
    };
    const noMark = removeAnchor(item, 'marks', 'mark_1');
    expect(noMark.anchors.marks.map((m) => m.id)).toEqual(['mark_2']);
    expect(noMark.trail[0]!.links).toMatchObject({ marks: ['mark_2'], viewpoints: ['vp_1'] });
    expect(removeAnchor(item, 'viewpoints', 'vp_1').trail[0]!.links.viewpoints).toEqual([]);
    expect(removeAnchor(item, 'marks', 'nope')).toBe(item);
    expect(setMarkLabel(item, 'mark_2', 'sofa').anchors.marks[1]!.label).toBe('sofa');
    expect(setMarkLabel(item, 'mark_2', '')).toBe(item);
    expect(QaItemSchema.safeParse(noMark).success).toBe(true);
  });
});
