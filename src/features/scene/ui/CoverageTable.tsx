import { useMemo } from 'react';
import type { AgentName } from '../../../core/agents.ts';
import { labelCoverage } from '../../../core/coverage.ts';
import type { Scene } from '../../../core/project.ts';

/** Per agent: how many of the edges the questions need carry a label, and how they were judged. */
export function CoverageTable({ scene, agents }: { scene: Scene; agents: AgentName[] }) {
  const rows = useMemo(() => labelCoverage(scene, agents), [scene, agents]);
  return (
    <table className="table coverage" data-testid="label-coverage">
      <caption>Label coverage of the edges this scene's questions need</caption>
      <thead>
        <tr>
          <th>Agent</th>
          <th>Labelled / needed</th>
          <th>Traversable</th>
          <th>Not</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.agent} data-agent={r.agent} className={r.labelled < r.needed ? 'incomplete' : ''}>
            <th scope="row">{r.agent}</th>
            <td>
              {r.labelled} / {r.needed}
            </td>
            <td>{r.traversable}</td>
            <td>{r.notTraversable}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
