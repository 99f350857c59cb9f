import { useState } from 'react';
import type { AgentProfile } from '../../../core/agents.ts';
import { isBuiltIn, profileProblem } from '../../../core/profileEdit.ts';
import { applyEdit } from '../../../state/edits.ts';
import { PROFILE_EDITS } from '../state/profileEdits.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';

type NumField = 'widthM' | 'depthM' | 'heightM' | 'maxStepM' | 'turningSpaceM';
type BoolField = 'canUseStairs' | 'canUseElevator' | 'canOpenDoors';

/** The agents of the project: the five CapNav profiles and custom ones; every change is one undo step. */
export function ProfilesPanel() {
  const store = useStudioStore();
  const project = useStudio((s) => s.document.project);
  const [error, setError] = useState<string | null>(null);
  if (!project) return null;
  const commit = (previous: AgentProfile, next: AgentProfile) => {
    const problem = profileProblem(project, next, previous.name);
    setError(problem);
    if (!problem) applyEdit(store, PROFILE_EDITS.update, { previousName: previous.name, next });
  };
  const num = (p: AgentProfile, field: NumField, nullable = false) => (
    <input
      type="number"
      step="0.001"
      min={0}
      defaultValue={p[field] ?? ''}
      key={`${p.name}:${field}:${p[field]}`}
      aria-label={`${p.name} ${field}`}
      data-field={field}
      onBlur={(e) => {
        const v = e.target.value === '' && nullable ? null : Number(e.target.value);
        if (v !== p[field]) commit(p, { ...p, [field]: v });
      }}
    />
  );
  const bool = (p: AgentProfile, field: BoolField) => (
    <input type="checkbox" checked={p[field]} aria-label={`${p.name} ${field}`} onChange={(e) => commit(p, { ...p, [field]: e.target.checked })} />
  );
  return (
    <section className="profiles" aria-labelledby="profiles-title" data-testid="profiles">
      <h2 id="profiles-title">Agents</h2>
      <p className="hint">
        The five CapNav profiles (the benchmark's truth) and your own. Dimensions in metres; exported in agent_profile.json and the bundle.
      </p>
      <table className="table">
        <thead>
          <tr>
            <th>Agent</th>
            <th>Shape</th>
            <th>Width</th>
            <th>Depth</th>
            <th>Height</th>
            <th>Max step</th>
            <th>Stairs</th>
            <th>Lift</th>
            <th>Doors</th>
            <th>Turning space</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {project.profiles.map((p) => (
            <tr key={p.name} data-agent={p.name}>
              <th scope="row">
                {isBuiltIn(p.name) ? (
                  p.name
                ) : (
                  <input
                    defaultValue={p.name}
                    key={p.name}
                    aria-label="Agent name"
                    size={10}
                    onBlur={(e) => {
                      const name = e.target.value.trim().toUpperCase();
                      if (name !== p.name) commit(p, { ...p, name });
                    }}
                  />
                )}
              </th>
              <td>
                <select
                  value={p.shape}
                  aria-label={`${p.name} shape`}
                  onChange={(e) =>
                    commit(p, { ...p, shape: e.target.value as AgentProfile['shape'], depthM: e.target.value === 'box' ? (p.depthM ?? p.widthM) : null })
                  }
                >
                  <option value="cylinder">cylinder</option>
                  <option value="box">box</option>
                </select>
              </td>
              <td>{num(p, 'widthM')}</td>
              <td>{p.shape === 'box' ? num(p, 'depthM') : '–'}</td>
              <td>{num(p, 'heightM')}</td>
              <td>{num(p, 'maxStepM')}</td>
              <td>{bool(p, 'canUseStairs')}</td>
              <td>{bool(p, 'canUseElevator')}</td>
              <td>{bool(p, 'canOpenDoors')}</td>
              <td>{num(p, 'turningSpaceM', true)}</td>
              <td>
                {!isBuiltIn(p.name) && (
                  <button className="small secondary" onClick={() => applyEdit(store, PROFILE_EDITS.remove, { name: p.name })}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button className="small" data-testid="add-agent" onClick={() => applyEdit(store, PROFILE_EDITS.add, { from: 'WHEELCHAIR' })}>
        + Custom agent (from the wheelchair)
      </button>
    </section>
  );
}
