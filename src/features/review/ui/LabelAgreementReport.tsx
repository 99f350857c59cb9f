import type { LabelAgreement } from '../../../core/interRater.ts';
import { useStudio } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';
import { filesFromInput } from '../../../ui/pickedFiles.ts';
import { kappaText } from './kappaText.ts';

/** Traversability labels made twice: this project against a second annotator's export, Cohen's κ per agent. */
export function LabelAgreementReport() {
  const qaCompareLabels = useCommand('qa.compareLabels');
  const comparison = useStudio((s) => s.qa.labelComparison);
  return (
    <div data-testid="label-agreement">
      <h4>Traversability labels made twice</h4>
      <label className="button secondary small" title="A CapNav release folder with the same scenes, labelled by someone else (or by you again)">
        Compare with another labelling…
        <input
          type="file"
          multiple
          hidden
          data-testid="compare-labels"
          ref={(el) => {
            if (el) el.setAttribute('webkitdirectory', '');
          }}
          onChange={(e) => {
            const l = e.currentTarget.files;
            if (l?.length) void qaCompareLabels(filesFromInput(l));
            e.currentTarget.value = '';
          }}
        />
      </label>
      {comparison && (
        <>
          <p className="muted">
            Against {comparison.source}: {comparison.scenes.length} scene{comparison.scenes.length === 1 ? '' : 's'} compared
            {comparison.unmatched.length ? `; not in this project: ${comparison.unmatched.join(', ')}` : ''}.
          </p>
          <AgreementTable title="All scenes" a={comparison.overall} />
          {comparison.scenes.length > 1 && comparison.scenes.map((s) => <AgreementTable key={s.sceneId} title={s.sceneId} a={s.agreement} />)}
        </>
      )}
    </div>
  );
}

function AgreementTable({ title, a }: { title: string; a: LabelAgreement }) {
  return (
    <table className="compact" data-agreement={title}>
      <caption>
        {title}: {a.overall.agreed}/{a.overall.compared} segments agree, Cohen’s κ {kappaText(a.overall.cohen)}
        {a.skipped.length ? ` (${a.skipped.length} left out: direction conflicts or auto-approved)` : ''}
      </caption>
      <tbody>
        {a.perAgent
          .filter((p) => p.compared > 0)
          .map((p) => (
            <tr key={p.agent}>
              <th>{p.agent}</th>
              <td>
                {p.agreed}/{p.compared}
              </td>
              <td>κ {kappaText(p.cohen)}</td>
              <td className="muted">
                {p.disagreements
                  .slice(0, 4)
                  .map((d) => d.edge)
                  .join(', ')}
                {p.disagreements.length > 4 ? ' …' : ''}
              </td>
            </tr>
          ))}
      </tbody>
    </table>
  );
}
