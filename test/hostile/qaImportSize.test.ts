import { describe, expect, it } from 'vitest';
import { emptyProject, type Project } from '../../src/core/project.ts';
import { readGeneratedItems } from '../../src/formats/qa/generated.ts';
import { FIELD_LIMITS } from '../../src/formats/qa/records.ts';
import { navGraph, sceneOf } from '../support/sceneBuilder.ts';
import { importQaFiles } from '../../src/features/qa/app/qaFiles.ts';
import { createStudioStore, initialState, type StudioStore } from '../../src/state/store.ts';
import type { PickedFile } from '../../src/ui/pickedFiles.ts';
import { yieldNow } from '../../src/engine/yieldNow.ts';
import { applyEdit } from '../../src/state/edits.ts';
import { replaceDocument } from '../../src/state/history.ts';
import { ITEM_LIST_EDITS } from '../../src/features/qa/state/qaItemEdits.ts';

/**
 * Issue 25 §12: a 20 MB question in imported generated items froze the studio for 31 s and 20,000
 * items for 19 s. Every string and list of a record has a limit, checked before the record is
 * examined and reported by record and place; an import holds at most FIELD_LIMITS.records items.
 * Nothing of an import with such a record is applied (as with every bad record).
 */
const NOW = '2026-11-29T09:00:00Z';
const project = (): Project => ({ ...emptyProject(), scenes: [sceneOf({ id: 'HM3D00001', graph: navGraph(['hall-kitchen']) })] });
const record = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    sceneId: 'HM3D00001',
    question: 'Is the kitchen next to the hall?',
    answer: { kind: 'yesno', correct: true },
    category: { capability: 'spatial' },
    trail: [{ text: 'They share a door.', kind: 'spatial' }],
    generator: 'g v1',
    ...over,
  });
const read = (text: string, path = 'gen.jsonl') => readGeneratedItems([{ path, text }], project(), { createdAt: NOW });
const located = (r: ReturnType<typeof read>) => r.problems.filter((p) => p.code === 'qa.too-large').map((p) => `${p.location}: ${p.message}`);

describe('sizes of imported generated items', () => {
  it('a 20 MB question, a 1 MB trail step and a 5,000-step trail are each refused at their place; the good records are not half-imported', () => {
    const text = [
      record(),
      record({ question: `Is it ${'x'.repeat(20_000_000)}?` }),
      record({ trail: [{ text: 'y'.repeat(1_000_000), kind: 'spatial' }] }),
      record({ trail: Array.from({ length: 5000 }, () => ({ text: 'step', kind: 'spatial' })) }),
    ].join('\n');
    const r = read(text);
    expect(r.items).toEqual([]);
    expect(located(r)).toEqual([
      'line 2 /question: 20,000,007 characters; a question holds at most 4,000',
      'line 3 /trail/0/text: 1,000,000 characters; a text field holds at most 20,000',
      'line 4 /trail: 5,000 entries; a list holds at most 1,000',
    ]);
  });

  it("in a .json list the place is the record's pointer", () => {
    const r = read(`[${record()}, ${record({ generator: 'z'.repeat(FIELD_LIMITS.text + 1) })}]`, 'gen.json');
    expect(located(r)).toEqual([`/1/generator: ${(FIELD_LIMITS.text + 1).toLocaleString('en')} characters; a text field holds at most 20,000`]);
  });

  it('at the limits a record is imported', () => {
    const r = read(
      record({
        question: 'q'.repeat(FIELD_LIMITS.question - 1) + '?',
        trail: Array.from({ length: FIELD_LIMITS.list }, () => ({ text: 't'.repeat(FIELD_LIMITS.text), kind: 'spatial' })),
      }),
    );
    expect(located(r)).toEqual([]);
    expect(r.items).toHaveLength(1);
  });

  it(`more than ${FIELD_LIMITS.records.toLocaleString('en')} items in one import are refused once the file is parsed, before any record is examined; as many are read`, () => {
    const line = record() + '\n';
    const over = read(line.repeat(FIELD_LIMITS.records + 1));
    expect(over.items).toEqual([]);
    expect(located(over)).toEqual([': 50,001 items in this import so far; one import holds at most 50,000 (split the file)']);
    // Every item asks the same question, which is only a warning: all of them come in.
    const at = read(line.repeat(FIELD_LIMITS.records));
    expect(at.items).toHaveLength(FIELD_LIMITS.records);
  });
});

/**
 * The items of a large import are read in slices, so the project can change while they are read.
 * Issue 25's second review: the import then read every item again in one task (the freeze came
 * back) and kept the CapNav items as read against the old project; a project opened meanwhile got
 * the items picked for another.
 */
describe('a project that changes while an import is read', () => {
  const picked = (n: number): PickedFile[] => [{ path: 'gen.jsonl', file: new File([(record() + '\n').repeat(n)], 'gen.jsonl') }];
  const storeWith = () => createStudioStore({ ...initialState(), document: { project: project() }, workspace: { projectId: 'p1', projects: [] } });
  const written = readGeneratedItems([{ path: 'x.jsonl', text: record({ question: 'Written meanwhile?' }) }], project(), { createdAt: NOW }).items[0]!;
  const edited = (store: StudioStore, id: string) => applyEdit(store, ITEM_LIST_EDITS.add, { items: [{ ...written, id }] });

  it('an edit made meanwhile is kept, and the items are read again after it in slices, numbered after it', async () => {
    // What reading all the items in one task costs here, to compare the longest pause with.
    const text = (record() + '\n').repeat(5_000);
    readGeneratedItems([{ path: 'gen.jsonl', text }], project(), { createdAt: NOW });
    const t0 = performance.now();
    readGeneratedItems([{ path: 'gen.jsonl', text }], project(), { createdAt: NOW });
    const whole = performance.now() - t0;
    const store = storeWith();
    const importing = importQaFiles(store, picked(5_000), async () => {});
    // A turn of the page between slices, as the studio yields (a message round trip).
    let done = false;
    let turns = 0;
    let longestAfterEdit = 0;
    const watching = (async () => {
      let t = performance.now();
      while (!done) {
        await yieldNow();
        const now = performance.now();
        if (turns > 3) longestAfterEdit = Math.max(longestAfterEdit, now - t);
        t = now;
        if (++turns === 3) edited(store, 'qa_written');
      }
    })();
    expect(await importing).toBe(true);
    done = true;
    await watching;
    const items = store.getState().document.project!.qa.items;
    expect(items).toHaveLength(5_001);
    expect(items[0]!.id).toBe('qa_written');
    expect(new Set(items.map((i) => i.id)).size).toBe(5_001);
    expect(store.getState().importReport).toMatchObject({ accepted: true, items: { count: 5_000 } });
    // Read again in slices: the page had turns throughout, never a pause as long as one whole read.
    expect(longestAfterEdit).toBeLessThan(whole / 2);
  });

  it('a project that changes on every turn (a busy team) still gets the import: it is not read again for ever', { timeout: 60_000 }, async () => {
    const store = storeWith();
    const importing = importQaFiles(store, picked(5_000), async () => {});
    let done = false;
    let n = 0;
    const busy = (async () => {
      while (!done) {
        await yieldNow();
        edited(store, `qa_team_${++n}`);
      }
    })();
    expect(await importing).toBe(true);
    done = true;
    await busy;
    const items = store.getState().document.project!.qa.items;
    expect(items.filter((i) => i.source === 'generated')).toHaveLength(5_000 + n);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });

  it('another project opened meanwhile gets nothing, and the report says to import into the one intended', async () => {
    const store = storeWith();
    const importing = importQaFiles(store, picked(5_000), async () => {});
    await new Promise<void>((r) => setTimeout(r, 5));
    replaceDocument(store, { ...project(), name: 'Another' });
    store.setState({ workspace: { projectId: 'p2', projects: [] } });
    expect(await importing).toBe(false);
    expect(store.getState().document.project!.qa.items).toEqual([]);
    expect(store.getState().importReport?.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('another project was opened while the items were read: nothing imported (open "Untitled project"'),
    ]);
  });
});
