import { useRef } from 'react';
import { restoreDefaultTaxonomy } from '../state/qaItems.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';

/** The project's taxonomy (the category every item needs), with how many items use each capability; replaceable from a file. */
export function TaxonomyPanel() {
  const store = useStudioStore();
  const qaImportTaxonomy = useCommand('qa.importTaxonomy');
  const taxonomy = useStudio((s) => s.document.project?.qa.taxonomy);
  const items = useStudio((s) => s.document.project?.qa.items);
  const input = useRef<HTMLInputElement>(null);
  if (!taxonomy || !items) return null;
  const used = (cap: string) => items.filter((i) => i.category.capability === cap).length;
  return (
    <details className="qa-taxonomy" data-testid="taxonomy">
      <summary>
        Taxonomy: {taxonomy.capabilities.length} capabilities, {taxonomy.taskTypes.length} task types
      </summary>
      <ul>
        {taxonomy.capabilities.map((c) => (
          <li key={c.id} data-capability={c.id}>
            <strong>{c.name}</strong> <code>{c.id}</code>
            {c.separate ? ' (reported apart)' : ''} · {used(c.id)} item{used(c.id) === 1 ? '' : 's'}
            {c.subcategories.length > 0 && <div className="muted">{c.subcategories.map((x) => `${x.id} ${x.name}`).join(' · ')}</div>}
          </li>
        ))}
      </ul>
      {taxonomy.taskTypes.length > 0 && <p className="muted">Task types: {taxonomy.taskTypes.map((t) => t.name).join(' · ')}</p>}
      <button className="small secondary" data-testid="import-taxonomy" onClick={() => input.current?.click()}>
        Replace with a taxonomy file…
      </button>
      <input
        ref={input}
        type="file"
        accept=".json"
        hidden
        data-testid="import-taxonomy-input"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void qaImportTaxonomy({ path: f.name, file: f });
        }}
      />
      <button className="small secondary" onClick={() => restoreDefaultTaxonomy(store)}>
        Restore the default (Embodied4C, FoMER)
      </button>
      <p className="muted">
        A taxonomy file is{' '}
        <code>{'{ "capabilities": [{ "id", "name", "separate", "subcategories": [{ "id", "name" }] }], "taskTypes": [{ "id", "name" }] }'}</code>, or a QA
        bundle’s <code>manifest.json</code>. Items whose category it lacks are listed by the checks below.
      </p>
    </details>
  );
}
