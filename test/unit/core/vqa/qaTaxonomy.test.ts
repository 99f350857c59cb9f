import { describe, expect, it } from 'vitest';
import { checkQaItems } from '../../../../src/core/vqa/checks.ts';
import { DEFAULT_TAXONOMY } from '../../../../src/core/vqa/taxonomy.ts';
import { exportQaBundle } from '../../../../src/formats/qa/bundle.ts';
import { readTaxonomy } from '../../../../src/formats/qa/taxonomy.ts';
import { emptyProject } from '../../../../src/core/project.ts';

const file = (value: unknown, path = 'taxonomy.json') => ({ path, text: JSON.stringify(value, null, 1) });

describe('reading a project taxonomy', () => {
  it('reads a taxonomy file, and the taxonomy of a QA bundle manifest', () => {
    const own = { capabilities: [{ id: 'nav', name: 'Navigation', subcategories: [{ id: 'door', name: 'Doors' }] }], taskTypes: [] };
    expect(readTaxonomy(file(own)).taxonomy).toEqual({
      capabilities: [{ id: 'nav', name: 'Navigation', separate: false, subcategories: [{ id: 'door', name: 'Doors' }] }],
      taskTypes: [],
    });
    const manifest = exportQaBundle(emptyProject('p'), { createdAt: 't', appVersion: '0' });
    if (!manifest.ok) throw new Error('an empty project exports');
    const m = manifest.files.find((f) => f.path === 'qa/manifest.json')!;
    expect(readTaxonomy(m).taxonomy).toEqual(DEFAULT_TAXONOMY);
  });

  it('reports every problem by pointer and gives no taxonomy: wrong types, duplicate ids, no capability', () => {
    const bad = {
      capabilities: [
        {
          id: 'a',
          name: 'A',
          subcategories: [
            { id: 'x', name: 'X' },
            { id: 'x', name: 'again' },
          ],
        },
        { id: 'a', name: 'A twice', subcategories: [] },
      ],
      taskTypes: [
        { id: 't', name: 'T' },
        { id: 't', name: 'T' },
      ],
    };
    const r = readTaxonomy(file(bad));
    expect(r.taxonomy).toBeNull();
    expect(r.problems.map((p) => p.location)).toEqual(['/capabilities/1/id', '/capabilities/0/subcategories/1/id', '/taskTypes/1/id']);
    expect(readTaxonomy(file({ capabilities: [{ id: '', name: 1 }], taskTypes: [] })).problems.map((p) => p.location)).toEqual(
      expect.arrayContaining(['/capabilities/0/id', '/capabilities/0/name']),
    );
    expect(readTaxonomy(file({ capabilities: [], taskTypes: [] })).problems[0]!.code).toBe('taxonomy.empty');
    expect(readTaxonomy({ path: 'taxonomy.json', text: '{ "capabilities": [' }).problems[0]!.location).toMatch(/line 1/);
  });

  it('items whose category the new taxonomy lacks are flagged by the checks', () => {
    const p = emptyProject('p');
    const item = {
      id: 'qa_1',
      sceneId: 'S',
      question: 'Q?',
      answer: { kind: 'yesno' as const, correct: true },
      category: { capability: 'spatial' },
      anchors: { viewpoints: [], marks: [], nodes: [], edges: [] },
      trail: [],
      source: 'written' as const,
      status: 'accepted' as const,
      requiredReviews: 1,
      reviews: [],
      createdAt: 't',
      author: '',
    };
    const nav = readTaxonomy(file({ capabilities: [{ id: 'nav', name: 'Navigation', subcategories: [] }], taskTypes: [] })).taxonomy!;
    const findings = checkQaItems({ scenes: [], qa: { taxonomy: nav, items: [item] } });
    expect(findings.filter((f) => f.code === 'category.unknown').map((f) => f.severity)).toEqual(['error']);
    expect(p.qa.taxonomy).toEqual(DEFAULT_TAXONOMY);
  });
});
