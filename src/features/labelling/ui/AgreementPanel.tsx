import { useMemo } from 'react';
import { suggestionAgreement } from '../../../core/suggestionAgreement.ts';
import { selectedScene } from '../../../state/commands.ts';
import { freshSuggestions } from '../../suggestions/state/suggestionSelectors.ts';
import { useStudio } from '../../../state/useStudio.ts';

/** Agreement between the suggestions and the labels annotators confirmed, per agent. */
export function AgreementPanel() {
  const scene = useStudio(selectedScene);
  // Out-of-date suggestions are not compared: they describe another scan or graph.
  const sug = useStudio((s) => (scene ? freshSuggestions(s, scene.id) : null));
  const rows = useMemo(() => (scene && sug ? suggestionAgreement(scene, sug) : null), [scene, sug]);
  if (!rows) return null;
  return (
    <details className="agreement" open data-testid="agreement">
      <summary>Suggestions vs confirmed labels</summary>
      <table className="table">
        <thead>
          <tr>
            <th>Agent</th>
            <th>Agree</th>
            <th>Compared</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.agent}
              data-agent={r.agent}
              title={r.disagreements.map((d) => `${d.edge}: suggested ${d.suggested ? 'yes' : 'no'}, confirmed ${d.confirmed ? 'yes' : 'no'}`).join('\n')}
            >
              <th scope="row">{r.agent}</th>
              <td>{r.compared ? `${Math.round((100 * r.agreed) / r.compared)} %` : '–'}</td>
              <td>
                {r.agreed} / {r.compared}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
