import { pointer, type Problem } from '../../core/problems.ts';
import { TaxonomySchema, type Taxonomy } from '../../core/vqa/taxonomy.ts';
import { checkShape, parseJson, type SourceFile } from '../json.ts';

/**
 * A project taxonomy from a JSON file (the shape of `taxonomy` in a QA bundle's manifest, so a
 * published bundle's taxonomy can be reused):
 *
 *   { "capabilities": [ { "id": "spatial", "name": "Spatial", "separate": false,
 *                         "subcategories": [ { "id": "DT", "name": "Distance" } ] } ],
 *     "taskTypes": [ { "id": "affordance", "name": "Action affordance" } ] }
 *
 * A manifest itself is accepted too (its `taxonomy` is read). Ids must be unique among the
 * capabilities, within each capability's subcategories, and among the task types; every problem is
 * reported by file and JSON pointer, and a file with any problem gives no taxonomy.
 */
export function readTaxonomy(file: SourceFile): { taxonomy: Taxonomy | null; problems: Problem[] } {
  const parsed = parseJson(file);
  if (!parsed.ok) return { taxonomy: null, problems: [parsed.problem] };
  const v = parsed.value;
  const inManifest = v !== null && typeof v === 'object' && !Array.isArray(v) && 'taxonomy' in v;
  const base = inManifest ? ['taxonomy'] : [];
  const shape = checkShape(file.path, inManifest ? (v as { taxonomy: unknown }).taxonomy : v, TaxonomySchema, base);
  if (!shape.ok) return { taxonomy: null, problems: shape.problems };
  const t = shape.value;
  const problems: Problem[] = [];
  const unique = (ids: string[], path: (string | number)[], what: string) => {
    const first = new Map<string, number>();
    ids.forEach((id, i) => {
      const at = first.get(id);
      if (at === undefined) first.set(id, i);
      else
        problems.push({
          severity: 'fatal',
          code: 'taxonomy.duplicate-id',
          file: file.path,
          location: pointer([...base, ...path, i, 'id']),
          message: `${what} id "${id}" is used by ${what} ${at + 1} too`,
        });
    });
  };
  unique(
    t.capabilities.map((c) => c.id),
    ['capabilities'],
    'capability',
  );
  t.capabilities.forEach((c, i) =>
    unique(
      c.subcategories.map((s) => s.id),
      ['capabilities', i, 'subcategories'],
      `subcategory of ${c.id}`,
    ),
  );
  unique(
    t.taskTypes.map((x) => x.id),
    ['taskTypes'],
    'task type',
  );
  if (t.capabilities.length === 0)
    problems.push({
      severity: 'fatal',
      code: 'taxonomy.empty',
      file: file.path,
      location: pointer([...base, 'capabilities']),
      message: 'a taxonomy needs at least one capability: the category is required on every item',
    });
  return { taxonomy: problems.length ? null : t, problems };
}
