import { useState } from 'react';
import type { ImportReport as Report, MergePreview } from '../../../state/store.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { ProblemList } from '../../../ui/ProblemList.tsx';
import { useCommand } from '../../../ui/commands.ts';
import { dismissImportReport } from '../../../state/sessionChanges.ts';

/**
 * The outcome of the last import: rejected (nothing changed, and why), waiting for a choice (a
 * new project, or merged into the open one after seeing every conflict), or done with findings.
 */
export function ImportReport() {
  const store = useStudioStore();
  const report = useStudio((s) => s.importReport);
  if (!report) return null;
  const errors = report.problems.filter((p) => p.severity !== 'warning').length;
  const dismiss = () => dismissImportReport(store);
  return (
    <section
      className={`import-report ${report.accepted || report.awaiting ? 'accepted' : 'rejected'}`}
      role={report.accepted || report.awaiting ? 'status' : 'alert'}
      data-testid="import-report"
    >
      <header>
        <strong>{headline(report, errors)}</strong>
        {!report.awaiting && (
          <button className="small" onClick={dismiss} aria-label="Dismiss import report">
            Dismiss
          </button>
        )}
      </header>
      {report.awaiting && <ImportChoice into={report.awaiting.into} merge={report.awaiting.merge} />}
      {(!(report.accepted || report.awaiting) || report.problems.length > 0) && <ProblemList problems={report.problems} testId="import-problems" />}
    </section>
  );
}

function headline(report: Report, errors: number): string {
  const findings = errors ? ` with ${errors} problem${errors === 1 ? '' : 's'} to fix` : '';
  if (report.awaiting) return `Read ${report.source}${findings}. Open it as a new project, or merge it into “${report.awaiting.into}”?`;
  if (report.empty)
    return `The ${report.empty === 'folder' ? 'folder' : 'files'} you picked ${report.empty === 'folder' ? 'has' : 'have'} no CapNav files (<SCENE>-graph.json, <SCENE>_QA.json, <SCENE>-traverse.json, agent_profile.json); nothing changed.`;
  if (!report.accepted) return `Import of ${report.source} failed: nothing was changed.`;
  if (report.outcome === 'merged' && report.merged) {
    const m = report.merged;
    return `Merged ${report.source}${findings}: ${m.added} record${m.added === 1 ? '' : 's'} added, ${m.replaced} conflict${m.replaced === 1 ? '' : 's'} taken from the import, ${m.kept} kept as they were. Undo takes the merge back.`;
  }
  if (report.outcome === 'items' && report.items) {
    const n = report.items.count;
    return `Imported ${n} item${n === 1 ? '' : 's'} from ${report.source} into “${report.items.into}”${findings}. Undo takes them out again.`;
  }
  return `Imported ${report.source} as a new project${findings}.`;
}

function ImportChoice({ into, merge }: { into: string; merge: MergePreview | null }) {
  const cancelImport = useCommand('import.cancel');
  const confirmMerge = useCommand('import.confirmMerge');
  const openAsNew = useCommand('import.openAsNew');
  const previewMerge = useCommand('import.previewMerge');
  const [theirs, setTheirs] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setTheirs((t) => {
      const n = new Set(t);
      if (n.has(key)) n.delete(key);
      else n.add(key);
      return n;
    });
  if (!merge) {
    return (
      <div className="import-choice">
        <button onClick={() => void openAsNew()} data-testid="import-as-new">
          Open as a new project
        </button>
        <button className="secondary" onClick={previewMerge} data-testid="import-merge-preview">
          Merge into “{into}”…
        </button>
        <button className="secondary" onClick={cancelImport}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div className="import-choice" data-testid="merge-preview">
      <p>
        Merging adds {merge.added} record{merge.added === 1 ? '' : 's'}; {merge.same} are already the same. A merge never removes anything.{' '}
        {merge.conflicts.length === 0
          ? 'Nothing conflicts.'
          : `${merge.conflicts.length} record${merge.conflicts.length === 1 ? '' : 's'} differ — tick the ones where the import should win; the others stay as they are.`}
      </p>
      {merge.conflicts.length > 0 && (
        <div className="merge-conflicts">
          <label>
            <input
              type="checkbox"
              checked={theirs.size === merge.conflicts.length}
              onChange={(e) => setTheirs(e.target.checked ? new Set(merge.conflicts.map((c) => c.key)) : new Set())}
            />{' '}
            The import wins every conflict
          </label>
          <table data-testid="merge-conflicts">
            <thead>
              <tr>
                <th>Import wins</th>
                <th>Record</th>
                <th>Yours</th>
                <th>The import's</th>
              </tr>
            </thead>
            <tbody>
              {merge.conflicts.map((c) => (
                <tr key={c.key}>
                  <td>
                    <input type="checkbox" checked={theirs.has(c.key)} onChange={() => toggle(c.key)} aria-label={`Take the import's ${c.what}`} />
                  </td>
                  <td>{c.what}</td>
                  <td>{c.mine}</td>
                  <td>{c.theirs}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <button onClick={() => confirmMerge(theirs)} data-testid="import-merge-confirm">
        Merge
      </button>
      <button className="secondary" onClick={() => void openAsNew()}>
        Open as a new project instead
      </button>
      <button className="secondary" onClick={cancelImport}>
        Cancel
      </button>
    </div>
  );
}
