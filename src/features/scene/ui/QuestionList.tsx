import { useMemo } from 'react';
import type { AgentName } from '../../../core/agents.ts';
import { adjacency } from '../../../core/graph.ts';
import { isFeasible } from '../../../core/feasibility.ts';
import type { PlannedQuestion } from '../../../core/plan.ts';
import type { Scene } from '../../../core/project.ts';
import { resolveRef, waypoints, type NodeRef } from '../../../core/questions.ts';
import { unreviewedTasks } from '../../../core/taskgen/unreviewed.ts';
import { toggleHallucinated } from '../../../state/commands.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { selectQuestion } from '../../../state/sessionChanges.ts';

const ABBREV: Record<string, string> = { HUMAN: 'Hu', WHEELCHAIR: 'Wc', HUMANOID: 'Hd', QUADRUPEDAL: 'Qd', SWEEPER: 'Sw' };
const agentAbbrev = (a: AgentName) => ABBREV[a] ?? a.slice(0, 3);

interface Props {
  scene: Scene;
  plan: PlannedQuestion[];
  agents: AgentName[];
}

/** The scene's questions with their resolved waypoints, resolution problems and feasibility per agent. */
export function QuestionList({ scene, plan, agents }: Props) {
  const store = useStudioStore();
  const selected = useStudio((s) => s.session.questionIndex);
  const adj = useMemo(() => adjacency(scene.graph), [scene.graph]);
  const names = useMemo(() => new Map(scene.graph.nodes.map((n) => [n.id, n.name])), [scene.graph.nodes]);
  const items = useStudio((s) => s.document.project?.qa.items);
  const waiting = useMemo(() => unreviewedTasks(items ?? [], scene.id), [items, scene.id]);
  if (!scene.questions.length) return <p className="empty">This scene has no questions.</p>;

  const refText = (r: NodeRef) => (r.nodeId ? (names.get(r.nodeId) ?? r.nodeId) : r.raw);
  return (
    <ol className="questions" data-testid="questions" aria-label="Questions (N / P to move, H to mark hallucinated)">
      {scene.questions.map((q, i) => {
        const p = plan[i]!;
        const wps = waypoints(q);
        const ids = wps.map((r) => r.nodeId);
        const resolved = ids.every((x): x is string => x !== null);
        return (
          <li
            key={q.id}
            data-question={i}
            aria-selected={selected === i}
            className={`question${selected === i ? ' selected' : ''}${'hallucinated' in p ? ' hallucinated' : ''}${'unresolved' in p ? ' unresolved' : ''}`}
            onClick={() => selectQuestion(store, i)}
          >
            <div className="q-text">
              <span className="q-index">#{i}</span> {q.text}
            </div>
            <div className="q-route">
              {wps.map((r, k) => (
                <span
                  key={k}
                  className={r.nodeId ? 'ref' : 'ref bad'}
                  title={
                    r.nodeId
                      ? `${r.raw} → ${r.nodeId}`
                      : (() => {
                          const x = resolveRef(r.raw, scene.graph.nodes);
                          return x.nodeId === null ? x.reason : '';
                        })()
                  }
                >
                  {k > 0 && <span className="arrow"> → </span>}
                  {refText(r)}
                </span>
              ))}
            </div>
            {'hallucinated' in p && <span className="badge warn">hallucinated · excluded</span>}
            {waiting.has(i) && !('hallucinated' in p) && (
              <span
                className="badge warn"
                data-testid="task-unreviewed"
                title="A generated task: it joins the label queue and the release once a reviewer accepts it (QA view)"
              >
                generated · awaiting review ({waiting.get(i)!.id}) · not in the label queue
              </span>
            )}
            {'unresolved' in p && (
              <span className="badge bad" data-testid="unresolved">
                unresolved: {p.unresolved.map((u) => `“${u}”`).join(', ')}
              </span>
            )}
            {'edges' in p && (
              <span className="badge">
                {p.edges.length} edge{p.edges.length === 1 ? '' : 's'} to label
              </span>
            )}
            {resolved && !('hallucinated' in p) && (
              <span className="feasibility">
                {agents.map((a) => {
                  const ok = isFeasible(scene.graph, scene.labels, a, ids[0]!, ids[ids.length - 1]!, adj);
                  return (
                    <span key={a} className={`feas ${ok ? 'yes' : 'no'}`} title={`${a}: ${ok ? 'feasible' : 'not feasible'} with the current labels`}>
                      {agentAbbrev(a)}
                      {ok ? '✓' : '✗'}
                    </span>
                  );
                })}
              </span>
            )}
            {selected === i && (
              <button
                className="small"
                onClick={(e) => {
                  e.stopPropagation();
                  toggleHallucinated(store, scene.id, i);
                }}
              >
                {'hallucinated' in p ? 'Unmark hallucinated (H)' : 'Mark hallucinated (H)'}
              </button>
            )}
          </li>
        );
      })}
    </ol>
  );
}
