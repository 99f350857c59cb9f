import { parseSegmentKey } from '../../../core/graph.ts';
import type { AugmentedTask } from '../../../core/research/augment.ts';
import { obstaclesOf } from '../../../core/research/augment.ts';
import type { TrainingResult } from '../state/training.ts';

/** A few of the tasks as a model would be asked them, with the answer and its route or reason (names and notes as text). */
export function TrainingExamples({ result, examples }: { result: TrainingResult; examples: readonly AugmentedTask[] }) {
  const names = new Map(result.scenes.map((s) => [s.id, new Map(s.graph.nodes.map((node) => [node.id, node.name.trim() || node.id]))]));
  const name = (scene: string, id: string) => names.get(scene)?.get(id) ?? id;
  const segment = (scene: string, key: string) => {
    const p = parseSegmentKey(key);
    return p ? `${name(scene, p.from)} – ${name(scene, p.to)}` : key;
  };
  return (
    <table className="table training-examples" data-testid="training-examples">
      <caption>Examples (one “yes” and one “no” per agent)</caption>
      <thead>
        <tr>
          <th>Agent</th>
          <th>Question</th>
          <th>Answer</th>
          <th>Route, or what blocks it</th>
        </tr>
      </thead>
      <tbody>
        {examples.map((t) => (
          <tr key={t.id} data-task={t.id}>
            <td>{t.agent}</td>
            <td data-col="question">
              {t.question} <span className="muted">({t.scene})</span>
            </td>
            <td data-col="answer">{t.feasible ? 'yes' : 'no'}</td>
            <td data-col="why">
              {t.route ? (
                t.route.map((id) => name(t.scene, id)).join(' → ')
              ) : (
                <>
                  {obstaclesOf(t).join(', ')}
                  <ul className="training-blocking">
                    {(t.blocking?.segments ?? []).slice(0, 4).map((b) => (
                      <li key={b.segment}>
                        {segment(t.scene, b.segment)}
                        {b.reason.length ? ` (${b.reason.join(', ')})` : ''}
                        {b.note ? `: ${b.note}` : ''}
                      </li>
                    ))}
                    {(t.blocking?.segments.length ?? 0) > 4 && <li className="muted">and {t.blocking!.segments.length - 4} more</li>}
                  </ul>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
