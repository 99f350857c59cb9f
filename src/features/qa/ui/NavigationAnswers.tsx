import { useMemo } from 'react';
import { projectNavigationAnswers } from '../../../core/vqa/navigationAnswers.ts';
import type { QaItem } from '../../../core/vqa/item.ts';
import { useStudio } from '../../../state/useStudio.ts';

/**
 * A navigation question's answer: not a yes/no of the item but one per agent, read from the
 * traversability labels as they stand (so it follows every label change); an agent the labels do
 * not settle yet is said to be undecided, and is left out of the exported bundle.
 */
export function NavigationAnswers({ item }: { item: QaItem }) {
  const project = useStudio((s) => s.document.project);
  const answers = useMemo(() => (project ? projectNavigationAnswers(project, item) : []), [project, item]);
  return (
    <div className="navigation-answers" data-testid="review-answer">
      <p className="muted">
        A navigation question: the answer depends on the agent and comes from the traversability labels (exported as one yes/no record per agent they decide).
        Review whether the question is real.
      </p>
      <ul data-testid="navigation-answers">
        {answers.map((a) => (
          <li key={a.agent} data-agent={a.agent} data-answer={a.answer === null ? 'undecided' : a.answer ? 'yes' : 'no'}>
            <strong>{a.agent}</strong> {a.answer === null ? <span className="warn">not decided — {a.why}</span> : <strong>{a.answer ? 'yes' : 'no'}</strong>}
          </li>
        ))}
        {answers.length === 0 && <li className="warn">The scene's question this item stands for is gone.</li>}
      </ul>
    </div>
  );
}
