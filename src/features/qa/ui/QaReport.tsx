import { useEffect, useMemo, useRef, useState } from 'react';
import type { Project } from '../../../core/project.ts';
import { verdictAgreement } from '../../../core/interRater.ts';
import { checkQaItemsQuickly, checkQaItemsSteps, exportBlockers, type QaCheckCache, type QaFinding } from '../../../core/vqa/checks.ts';
import { sliced } from '../../../persistence/sliced.ts';
import { REJECT_REASONS } from '../../../core/vqa/item.ts';
import { removalReport } from '../../../core/vqa/review.ts';
import { selectItem } from '../state/qaItems.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { kappaText } from '../../review/ui/kappaText.ts';
import { LabelAgreementReport } from '../../review/ui/LabelAgreementReport.tsx';
import { REASON_TEXT } from '../../review/ui/ReviewPanel.tsx';

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** Removal rate and reasons, reviewer agreement, and the consistency checks that gate the export. */
export function QaReport() {
  const store = useStudioStore();
  const project = useStudio((s) => s.document.project);
  const items = project?.qa.items;
  const removal = useMemo(() => removalReport(items ?? []), [items]);
  const agreement = useMemo(() => verdictAgreement(items ?? []), [items]);
  // Checked in the same render when few items changed; in slices when many did (20,000 imported
  // items took ~190 ms of the import's one long task to check). Findings checked in slices count
  // only for the project they were checked on: never the previous project's, one step behind.
  const cache = useRef<QaCheckCache>(new WeakMap());
  const quick = useMemo(() => (project ? checkQaItemsQuickly(project, cache.current) : null), [project]);
  const [slow, setSlow] = useState<{ project: Project; findings: QaFinding[] } | null>(null);
  useEffect(() => {
    if (!project || quick) return;
    let live = true;
    void sliced(checkQaItemsSteps(project, cache.current)).then((findings) => {
      if (live) setSlow({ project, findings });
    });
    return () => {
      live = false;
    };
  }, [project, quick]);
  if (!project) return null;
  const checked = quick ?? (slow?.project === project ? slow.findings : null);
  if (!checked) {
    return (
      <details className="qa-report" data-testid="qa-report">
        <summary data-testid="qa-checking">Report: checking {project.qa.items.length.toLocaleString('en')} items…</summary>
      </details>
    );
  }
  const findings = checked;
  const errors = findings.filter((f) => f.severity === 'error');
  // Live, not a snapshot of the last export: fixing an item takes it off at once.
  const blocked = exportBlockers(project, findings);
  return (
    <details className="qa-report" data-testid="qa-report" open={blocked.length > 0}>
      <summary>
        Report: {removal.decided} decided, {removal.rejected} removed ({pct(removal.rate)}) · {errors.length} error{errors.length === 1 ? '' : 's'},{' '}
        {findings.length - errors.length} warning{findings.length - errors.length === 1 ? '' : 's'}
      </summary>
      {blocked.length > 0 && (
        <div className="bad" role="alert" data-testid="export-blocked">
          <strong>Export blocked</strong> until these errors on accepted items are fixed:
          <ul>
            {blocked.map((f, i) => (
              <li key={i}>
                <button className="link" onClick={() => selectItem(store, f.itemId)}>
                  {f.itemId}
                </button>{' '}
                {f.field}: {f.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <h4>Removal</h4>
      <table className="compact" data-testid="removal">
        <tbody>
          <tr>
            <th>Decided</th>
            <td>{removal.decided}</td>
            <th>Accepted</th>
            <td>{removal.accepted}</td>
            <th>Removed</th>
            <td data-testid="removal-rate">
              {removal.rejected} ({pct(removal.rate)})
            </td>
          </tr>
          {REJECT_REASONS.map(
            (r) =>
              removal.byReason[r] > 0 && (
                <tr key={r}>
                  <td colSpan={5}>{REASON_TEXT[r]}</td>
                  <td>{removal.byReason[r]}</td>
                </tr>
              ),
          )}
          {removal.byReason.unspecified > 0 && (
            <tr>
              <td colSpan={5}>no reason given</td>
              <td>{removal.byReason.unspecified}</td>
            </tr>
          )}
          {(['generated', 'capnav', 'written'] as const).map(
            (src) =>
              removal.bySource[src].decided > 0 && (
                <tr key={src}>
                  <td colSpan={5}>{src} items removed</td>
                  <td>
                    {removal.bySource[src].rejected}/{removal.bySource[src].decided} ({pct(removal.bySource[src].rate)})
                  </td>
                </tr>
              ),
          )}
        </tbody>
      </table>
      <h4>Reviewer agreement</h4>
      {agreement.items === 0 ? (
        <p className="muted">No item has two reviews yet. Set “reviews needed” to 2 or more on import to measure agreement.</p>
      ) : (
        <ul data-testid="verdict-agreement">
          <li>
            {agreement.items} items with overlapping reviews, {agreement.unanimous} unanimous
          </li>
          {agreement.byRaters.map((b) => (
            <li key={b.raters}>
              {b.raters} reviews per item ({b.items} items): Fleiss’ κ = {kappaText(b.fleiss)}
            </li>
          ))}
          {agreement.pairs.map((p) => (
            <li key={p.reviewers.join('|')}>
              {p.reviewers[0]} and {p.reviewers[1]} ({p.items} items): Cohen’s κ = {kappaText(p.cohen)}
            </li>
          ))}
        </ul>
      )}
      <LabelAgreementReport />
      <h4>Consistency checks</h4>
      {findings.length === 0 ? (
        <p className="muted" data-testid="qa-checks-clean">
          No problems found.
        </p>
      ) : (
        <ul className="findings" data-testid="qa-checks">
          {findings.map((f, i) => (
            <li key={i} className={f.severity}>
              <span className={`badge ${f.severity === 'error' ? 'bad' : 'warn'}`}>{f.severity}</span>
              <button className="link" onClick={() => selectItem(store, f.itemId)}>
                {f.itemId}
              </button>{' '}
              {f.message}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
