import { useMemo } from 'react';
import { checkScene } from '../core/checks.ts';
import { defaultSceneFiles, locateFinding } from '../formats/capnav/locate.ts';
import { useStudio } from '../state/useStudio.ts';
import { ProblemList } from './ProblemList.tsx';

/** Every consistency problem of the current project, by the release file it would be written to. */
export function ProblemsView() {
  const project = useStudio((s) => s.document.project);
  const problems = useMemo(() => project?.scenes.flatMap((s) => checkScene(s).map((f) => locateFinding(f, defaultSceneFiles(s.id)))) ?? [], [project]);
  return (
    <section aria-labelledby="problems-title">
      <h2 id="problems-title">Problems in this project</h2>
      <p className="hint">
        Checked live: references that match no node, nodes without edges (questions from or to them are infeasible for every agent), labels on segments that are
        not edges, directions that disagree, missing reasons.
      </p>
      <ProblemList problems={problems} testId="project-problems" />
    </section>
  );
}
