import { useStudio, useStudioStore } from '../state/useStudio.ts';
import { ProblemList } from './ProblemList.tsx';
import { useActions } from './actions.ts';

/** The outcome of the last import: rejected (nothing changed, and why) or accepted with findings. */
export function ImportReport() {
  const store = useStudioStore();
  const { restorePrevious } = useActions();
  const report = useStudio((s) => s.importReport);
  if (!report) return null;
  const errors = report.problems.filter((p) => p.severity !== 'warning').length;
  return (
    <section className={`import-report ${report.accepted ? 'accepted' : 'rejected'}`} role={report.accepted ? 'status' : 'alert'} data-testid="import-report">
      <header>
        <strong>
          {report.accepted
            ? `Imported ${report.source}${errors ? ` with ${errors} problem${errors === 1 ? '' : 's'} to fix` : ''}.`
            : `Import of ${report.source} failed: nothing was changed.`}
        </strong>
        {report.accepted && report.replaced && <button className="small" onClick={() => void restorePrevious()}>Restore the previous project</button>}
        <button className="small" onClick={() => store.setState({ importReport: null })} aria-label="Dismiss import report">Dismiss</button>
      </header>
      {(!report.accepted || report.problems.length > 0) && <ProblemList problems={report.problems} testId="import-problems" />}
    </section>
  );
}
