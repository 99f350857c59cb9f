import { useEffect } from 'react';
import { feasibleRoute } from '../../core/feasibility.ts';
import type { ScoredRecord } from '../../core/scoring/paper/types.ts';
import type { PathPreview } from '../../state/store.ts';
import { useStudio, useStudioStore } from '../../state/useStudio.ts';
import { Workspace } from '../../viewport/Workspace.tsx';
import { selectedColumns, selectedIndex } from '../../state/scoreSelectors.ts';
import { useActions } from '../actions.ts';

type HopState = PathPreview['hops'][number]['state'];
const STATE_LABEL: Record<HopState, string> = { traversable: 'traversable', blocked: 'not traversable', unlabelled: 'unlabelled', invalid: 'no such edge' };

export function hopState(h: ScoredRecord['hops'][number]): HopState {
  if (!h.isEdge) return 'invalid';
  return h.traversable === true ? 'traversable' : h.note === undefined ? 'unlabelled' : 'blocked';
}

/** The selected record's route over its scene, hop by hop against the ground truth, with the reason. */
export function RecordPreview() {
  const store = useStudioStore();
  const { scoring } = useActions();
  const id = useStudio((s) => s.scoring.selectedRecord);
  const model = useStudio((s) => s.scoring.selectedModel);
  const index = useStudio(selectedIndex);
  const columns = useStudio(selectedColumns);
  const detail = useStudio((s) => s.scoring.detail);
  const project = useStudio((s) => s.document.project);
  // The full record lives where it was scored (the worker): fetch it when a row is opened.
  useEffect(() => { if (index >= 0 && model) void scoring.open(model, index); }, [index, model, columns, scoring]);
  const rec = detail && detail.id === id ? detail : undefined;
  const scene = rec ? project?.scenes.find((s) => s.id === rec.scene) : undefined;

  useEffect(() => {
    if (!rec || !scene) { store.setState((s) => ({ ephemeral: { ...s.ephemeral, pathPreview: null } })); return; }
    const first = rec.pathIds[0] ?? null, last = rec.pathIds[rec.pathIds.length - 1] ?? null;
    const preview: PathPreview = {
      hops: rec.hops.map((h) => ({ from: h.from, to: h.to, state: hopState(h) })),
      gtRoute: rec.src && rec.tgt ? feasibleRoute(scene.graph, scene.labels, rec.agent, rec.src, rec.tgt) : null,
      wrongStart: rec.src && first !== rec.src ? rec.src : null,
      wrongEnd: rec.tgt && last !== rec.tgt ? rec.tgt : null,
    };
    store.setState((s) => ({ ephemeral: { ...s.ephemeral, pathPreview: preview }, session: { ...s.session, sceneId: scene.id, agent: rec.agent } }));
  }, [rec, scene, store]);

  if (index < 0) return <p className="hint">Select a record to see its route over the scene (, and . step through the list).</p>;
  if (!rec) return <p className="hint">Opening the record…</p>;
  const names = new Map(scene?.graph.nodes.map((n) => [n.id, n.name || n.id]));
  const name = (nid: string | null, token?: string) => (nid ? names.get(nid) ?? nid : `“${token ?? '?'}” (no such node)`);
  return (
    <div className="record-preview" data-testid="record-preview" data-record={rec.id}>
      <div className="record-text">
        <p><strong>{rec.model}</strong> · {rec.scene} #{rec.questionIndex ?? '–'} · <strong>{rec.agent}</strong> · answered <strong>{rec.answer ?? `unparseable (${rec.answerRaw})`}</strong>, ground truth <strong>{rec.gtFeasible === null ? '–' : rec.gtFeasible ? 'feasible' : 'infeasible'}</strong> ({rec.outcome ?? rec.status})</p>
        <p className="q-text">{rec.question}</p>
        {rec.reason && <p className="reason" data-testid="record-reason">Reason: {rec.reason}</p>}
        {rec.judge && (rec.judge.error
          ? <p className="warn" data-testid="record-judge">Judge ({rec.judge.judge}): not judged, left out of RV — {rec.judge.error}</p>
          : <p className="muted" data-testid="record-judge">Judge ({rec.judge.judge}): {rec.judge.correct ? 'matches the ground-truth notes' : 'does not match'}{rec.judge.explanation ? ` — ${rec.judge.explanation}` : ''}</p>)}
        {rec.pathErrors.length > 0 && <p className="error">Path errors: {rec.pathErrors.map((e) => e.kind).join(', ')}</p>}
        <ol className="hops" data-testid="hops">
          {rec.hops.map((h, i) => {
            const st = hopState(h);
            return (
              <li key={i} data-hop={i} data-state={st} className={`hop ${st}`}>
                <span className={`sw ${st}`} /> {name(h.from, rec.pathTokens[i])} → {name(h.to, rec.pathTokens[i + 1])}: {STATE_LABEL[st]}{h.note ? ` (${h.note})` : ''}
              </li>
            );
          })}
        </ol>
        <p className="legend"><span className="sw traversable" /> traversable <span className="sw blocked" /> not <span className="sw unlabelled" /> unlabelled <span className="sw invalid" /> no such edge · blue dashed: a feasible ground-truth route · pink rings: where the route should start or end</p>
      </div>
      {scene ? <Workspace /> : <p className="error">Scene {rec.scene} is not in the project.</p>}
    </div>
  );
}
