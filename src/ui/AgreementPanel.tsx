import { useMemo } from 'react';
import { suggestionAgreement } from '../core/agreement.ts';
import { selectedScene } from '../state/commands.ts';
import { useStudio } from '../state/useStudio.ts';

/** Agreement between the suggestions and the labels annotators confirmed, per agent. */
export function AgreementPanel() {
  const scene = useStudio(selectedScene);
  const sug = useStudio((s) => (scene ? s.suggestions[scene.id] : undefined));
  const rows = useMemo(() => (scene && sug?.state === 'ready' ? suggestionAgreement(scene, sug.agents) : null), [scene, sug]);
  if (!rows) return null;
  return (
    <details className="agreement" open data-testid="agreement">
      <summary>Suggestions vs confirmed labels</summary>
      <table className="table">
        <thead><tr><th>Agent</th><th>Agree</th><th>Compared</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.agent} data-agent={r.agent} title={r.disagreements.map((d) => `${d.edge}: suggested ${d.suggested ? 'yes' : 'no'}, confirmed ${d.confirmed ? 'yes' : 'no'}`).join('\n')}>
              <th scope="row">{r.agent}</th><td>{r.compared ? `${Math.round((100 * r.agreed) / r.compared)} %` : '–'}</td><td>{r.agreed} / {r.compared}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
