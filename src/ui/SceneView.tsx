import { useMemo, useState } from 'react';
import { agentOrder } from '../core/agents.ts';
import { floorBands } from '../core/floors.ts';
import { selectedScene } from '../state/commands.ts';
import { useStudio, useStudioStore } from '../state/useStudio.ts';
import { CoverageTable } from './CoverageTable.tsx';
import { GraphTopDown } from './GraphTopDown.tsx';
import { QuestionList } from './QuestionList.tsx';
import { planScene } from '../core/plan.ts';

/** One scene: its graph from above, its questions with their resolution problems, label coverage. */
export function SceneView() {
  const store = useStudioStore();
  const scene = useStudio(selectedScene);
  const profiles = useStudio((s) => s.document.project?.profiles ?? []);
  const agent = useStudio((s) => s.session.agent);
  const questionIndex = useStudio((s) => s.session.questionIndex);
  const hoverNode = useStudio((s) => s.ephemeral.hoverNode);
  const [floor, setFloor] = useState<number | 'all'>('all');
  const plan = useMemo(() => (scene ? planScene(scene) : []), [scene]);
  const bands = useMemo(() => (scene ? floorBands(scene.graph.nodes) : []), [scene]);
  if (!scene) return <p className="empty">Choose a scene on the left.</p>;

  const q = questionIndex !== null ? scene.questions[questionIndex] : undefined;
  const planned = questionIndex !== null ? plan[questionIndex] : undefined;
  const highlight = {
    edges: new Set(planned && 'edges' in planned ? planned.edges : []),
    start: q?.start.nodeId ?? null,
    end: q?.end.nodeId ?? null,
  };
  const agents = agentOrder(profiles, Object.keys(scene.labels));

  return (
    <section className="scene" aria-labelledby="scene-title">
      <header className="scene-header">
        <h2 id="scene-title">{scene.id}</h2>
        <span className="muted">{scene.graph.nodes.length} nodes · {scene.graph.edges.length} edges · {scene.questions.length} questions</span>
        <label>Colour edges for{' '}
          <select value={agent} onChange={(e) => store.setState((s) => ({ session: { ...s.session, agent: e.target.value } }))} aria-label="Agent">
            {agents.map((a) => <option key={a} value={a}>{a}</option>)}
          </select>
        </label>
        {bands.length > 1 && (
          <label>Floor{' '}
            <select value={String(floor)} onChange={(e) => setFloor(e.target.value === 'all' ? 'all' : Number(e.target.value))} aria-label="Floor">
              <option value="all">All floors</option>
              {bands.map((b) => <option key={b.index} value={b.index}>Floor {b.index + 1} ({b.min.toFixed(1)}–{b.max.toFixed(1)} m)</option>)}
            </select>
          </label>
        )}
      </header>
      <div className="scene-body">
        <div className="graph-panel">
          <GraphTopDown scene={scene} agent={agent} floor={floor} highlight={highlight} hoverNode={hoverNode}
            onHoverNode={(id) => store.setState({ ephemeral: { hoverNode: id } })} />
          <p className="legend"><span className="sw traversable" /> traversable <span className="sw blocked" /> not traversable <span className="sw conflict" /> directions disagree <span className="sw unlabelled" /> unlabelled · thick: the selected question's work list</p>
          <CoverageTable scene={scene} agents={agents} />
        </div>
        <QuestionList scene={scene} plan={plan} agents={agents} />
      </div>
    </section>
  );
}
