import type { Label } from '../../../core/labels.ts';
import { labelDisputes } from '../../../core/labelVotes.ts';
import type { Project } from '../../../core/project.ts';
import { teamAgreement, type TeamAgreement } from '../../../core/teamAgreement.ts';
import { selectedScene } from '../../../state/commands.ts';
import { decideDispute } from '../../labelling/state/labelCommands.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { kappaText } from '../../review/ui/kappaText.ts';
import { notify } from '../../../state/sessionChanges.ts';

const agreementOf = new WeakMap<Project['scenes'], TeamAgreement>();
/** Team agreement, computed once per version of the scenes (it follows every label as it arrives). */
function useTeamAgreement(): TeamAgreement | null {
  const scenes = useStudio((s) => s.document.project?.scenes);
  if (!scenes) return null;
  let a = agreementOf.get(scenes);
  if (!a) agreementOf.set(scenes, (a = teamAgreement({ scenes })));
  return a;
}

const judgement = (l: Label) => `${l.traversable ? 'traversable' : 'not traversable'}${l.note ? ` (${l.note})` : ''}`;

/**
 * The team's labels: who labelled, how far they agree (Cohen's κ per pair, Light's κ for the
 * team), and this scene's disputed segments — both labels kept — to decide one by one.
 */
export function TeamPanel() {
  const store = useStudioStore();
  const scene = useStudio(selectedScene);
  const team = useTeamAgreement();
  if (!scene || !team || team.annotators.length < 2) return null;
  const disputes = labelDisputes(scene);
  const names = new Map(scene.graph.nodes.map((n) => [n.id, n.name || n.id]));
  const segText = (seg: string) =>
    seg
      .split('|')
      .map((id) => names.get(id) ?? id)
      .join(' → ');
  const decide = (agent: string, seg: string, label: Label) => {
    const refused = decideDispute(store, scene.id, agent, seg, label);
    if (refused) notify(store, refused);
  };
  return (
    <details className="team" open data-testid="team-panel">
      <summary>
        Team: {team.annotators.length} annotators · Light’s κ {team.light === null ? '—' : team.light.toFixed(3)}
        {team.disputes > 0 && (
          <>
            {' '}
            · <strong data-testid="dispute-count">{team.disputes} disputed</strong>
          </>
        )}
      </summary>
      <table className="compact" data-testid="team-kappa">
        <tbody>
          {team.pairs.map((p) => (
            <tr key={`${p.a}|${p.b}`} data-pair={`${p.a}|${p.b}`}>
              <th>
                {p.a} · {p.b}
              </th>
              <td>
                {p.agreement.overall.agreed}/{p.agreement.overall.compared} agree
              </td>
              <td>κ {kappaText(p.agreement.overall.cohen)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {disputes.length > 0 && (
        <>
          <h4>Disputed in {scene.id}: decide each</h4>
          <ul className="disputes" data-testid="disputes">
            {disputes.map((d) => (
              <li key={`${d.agent}:${d.seg}`} data-dispute={`${d.agent}:${d.seg}`}>
                <strong>{d.agent}</strong> {segText(d.seg)}
                <ul>
                  {d.votes.map(([who, l]) => (
                    <li key={who}>
                      {who}: {judgement(l)}{' '}
                      <button className="small secondary" onClick={() => decide(d.agent, d.seg, l)} data-testid="decide-with">
                        Decide: {who}’s
                      </button>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </>
      )}
    </details>
  );
}
