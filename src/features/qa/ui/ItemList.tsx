import { useMemo, useState } from 'react';
import { ANY_SCOPE, isScoped } from '../../../core/vqa/itemFilters.ts';
import { qaItems, selectItem } from '../state/qaItems.ts';
import { itemsFor, reviewerOf, setScope } from '../../review/state/qaReview.ts';
import type { QaFilter } from '../../../state/store.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { ItemFilters, scopeText } from './ItemFilters.tsx';
import { setItemFilter } from '../state/qaItems.ts';

const FILTERS: { id: QaFilter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'to-review', label: 'My review queue' },
  { id: 'draft', label: 'Drafts' },
  { id: 'pending', label: 'Pending review' },
  { id: 'adjudicate', label: 'To adjudicate' },
  { id: 'accepted', label: 'Accepted' },
  { id: 'rejected', label: 'Rejected' },
];

/** Rows drawn at once: 20,000 imported items drawn as rows took over a second of one task. */
export const ITEM_PAGE = 200;

/** The project's items, filtered by status or the reviewer's queue and narrowed by scene, source and import; the open one highlighted. */
export function ItemList() {
  const store = useStudioStore();
  const filter = useStudio((s) => s.qa.filter);
  const openId = useStudio((s) => s.qa.itemId);
  const all = useStudio(qaItems);
  const reviewer = useStudio(reviewerOf);
  // Filtered when the items, the filter or the reviewer change, not on every change of the store.
  const scope = useStudio((s) => s.qa.scope);
  const items = useMemo(() => itemsFor(all, filter, reviewer, scope), [all, filter, reviewer, scope]);
  const counts = useMemo(() => FILTERS.map((f) => itemsFor(all, f.id, reviewer, scope).length), [all, reviewer, scope]);
  const total = all.length;
  const status = FILTERS.find((f) => f.id === filter)?.label ?? filter;
  // The page holding the open item, unless the reviewer turned to another; a new item or filter turns back to it.
  // A turn holds for the open item and the list it was made on (derived, not reset by an effect).
  const [turn, setTurn] = useState<{ page: number; openId: string | null; items: typeof items } | null>(null);
  const turned = turn && turn.openId === openId && turn.items === items ? turn.page : null;
  const setTurned = (p: number) => setTurn({ page: p, openId, items });
  const pages = Math.ceil(items.length / ITEM_PAGE);
  const openAt = items.findIndex((i) => i.id === openId);
  const page = Math.min(Math.max(0, turned ?? (openAt < 0 ? 0 : Math.floor(openAt / ITEM_PAGE))), Math.max(0, pages - 1));
  const shown = pages > 1 ? items.slice(page * ITEM_PAGE, (page + 1) * ITEM_PAGE) : items;
  const pager = pages > 1 && (
    <div className="item-pager" data-testid="qa-pager">
      <button className="small" disabled={page === 0} onClick={() => setTurned(page - 1)} data-testid="qa-page-previous">
        ‹ Previous {ITEM_PAGE}
      </button>
      <span data-testid="qa-page">
        {(page * ITEM_PAGE + 1).toLocaleString('en')}–{Math.min(items.length, (page + 1) * ITEM_PAGE).toLocaleString('en')} of{' '}
        {items.length.toLocaleString('en')}
      </span>
      <button className="small" disabled={page >= pages - 1} onClick={() => setTurned(page + 1)} data-testid="qa-page-next">
        Next {ITEM_PAGE} ›
      </button>
    </div>
  );
  return (
    <div className="qa-list" data-testid="qa-list" tabIndex={-1}>
      <div className="qa-filters">
        <label className="inline">
          Show{' '}
          <select aria-label="Which items" data-testid="qa-filter" value={filter} onChange={(e) => setItemFilter(store, e.target.value as QaFilter)}>
            {FILTERS.map((f, i) => (
              <option key={f.id} value={f.id}>
                {f.label} ({counts[i]})
              </option>
            ))}
          </select>
        </label>
        {total > 0 && <ItemFilters />}
      </div>
      {total === 0 ? (
        <p className="hint" data-testid="qa-empty">
          No items yet. Write one for this scene with “+ New item”, or import generated items (JSON / JSONL, or a CapNav <code>&lt;SCENE&gt;_QA.json</code>)
          with “Import items…”.
        </p>
      ) : items.length === 0 ? (
        <div className="hint" data-testid="qa-no-match">
          {isScoped(scope) ? (
            <>
              <p>
                No item of “{status}” matches the filters ({scopeText(scope)}). Choose another scene, source or import above, or show everything:
              </p>
              <button className="small" data-testid="qa-no-match-clear" onClick={() => setScope(store, ANY_SCOPE)}>
                Clear the filters
              </button>
            </>
          ) : (
            <p>No item is “{status}”. Choose “All” under Show to see every item.</p>
          )}
        </div>
      ) : (
        <>
          {pager}
          <ul className="items">
            {shown.map((i) => (
              <li key={i.id}>
                <button className={`item-row${i.id === openId ? ' active' : ''}`} data-item-row={i.id} onClick={() => selectItem(store, i.id)}>
                  <span className={`badge status-${i.status}`}>{i.status}</span>
                  <span className="item-id">{i.id}</span> <span className="item-text">{i.question || '(no question yet)'}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
