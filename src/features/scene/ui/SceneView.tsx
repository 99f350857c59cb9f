import { useMemo, useState } from 'react';
import { agentOrder } from '../../../core/agents.ts';
import { planScene } from '../../../core/plan.ts';
import { selectedScene } from '../../../state/commands.ts';
import { useStudio, useStudioShallow, useStudioStore } from '../../../state/useStudio.ts';
import { Workspace } from '../../../viewport/Workspace.tsx';
import { CoverageTable } from './CoverageTable.tsx';
import { GraphPanel } from './GraphPanel.tsx';
import { MeshBar } from './MeshBar.tsx';
import { MeasureReadout } from './MeasureReadout.tsx';
import { QuestionList } from './QuestionList.tsx';
import { Toolbar } from '../../../ui/Toolbar.tsx';
import { TourPanel } from '../../tour/ui/TourPanel.tsx';
import { chooseAgent } from '../../../state/sessionChanges.ts';

type Tab = 'graph' | 'questions' | 'coverage' | 'tour';

/** One scene: the 3D workspace with its tools, and the graph, questions and label coverage beside it. */
export function SceneView() {
  const store = useStudioStore();
  const scene = useStudio(selectedScene);
  const profiles = useStudioShallow((s) => s.document.project?.profiles ?? []);
  const agent = useStudio((s) => s.session.agent);
  const [tab, setTab] = useState<Tab>('graph');
  const plan = useMemo(() => (scene ? planScene(scene) : []), [scene]);
  if (!scene) return <p className="empty">Choose a scene on the left.</p>;
  const agents = agentOrder(profiles, Object.keys(scene.labels));

  return (
    <section className="scene" aria-labelledby="scene-title">
      <header className="scene-header">
        <h2 id="scene-title">{scene.id}</h2>
        <span className="muted">
          {scene.graph.nodes.length} nodes · {scene.graph.edges.length} edges · {scene.questions.length} questions
        </span>
        <label>
          Colour edges for{' '}
          <select value={agent} onChange={(e) => chooseAgent(store, e.target.value)} aria-label="Agent">
            {agents.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <span className="legend">
          <span className="sw traversable" /> traversable <span className="sw blocked" /> not <span className="sw conflict" /> directions disagree{' '}
          <span className="sw unlabelled" /> unlabelled
        </span>
      </header>
      <MeshBar />
      <Toolbar />
      <div className="scene-body">
        <div className="viewport-panel">
          <Workspace />
          <MeasureReadout />
        </div>
        <aside className="side-panel">
          <div className="tabs" role="tablist">
            {(['graph', 'questions', 'coverage', 'tour'] as const).map((t) => (
              <button key={t} role="tab" aria-selected={tab === t} className={tab === t ? 'active' : ''} onClick={() => setTab(t)} data-testid={`tab-${t}`}>
                {{ graph: 'Graph', questions: `Questions (${scene.questions.length})`, coverage: 'Label coverage', tour: 'Tour video' }[t]}
              </button>
            ))}
          </div>
          {tab === 'graph' && <GraphPanel />}
          {tab === 'questions' && <QuestionList scene={scene} plan={plan} agents={agents} />}
          {tab === 'coverage' && <CoverageTable scene={scene} agents={agents} />}
          {tab === 'tour' && <TourPanel />}
        </aside>
      </div>
    </section>
  );
}
