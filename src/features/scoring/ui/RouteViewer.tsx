import { useEffect, useMemo } from 'react';
import { feasibleRoute } from '../../../core/feasibility.ts';
import { worldHeight } from '../../../core/floors.ts';
import type { ScoredRecord } from '../../../core/scoring/paper/types.ts';
import type { PathPreview } from '../../../state/store.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { sceneFloors } from '../../../state/slice.ts';
import { selectedColumns, selectedIndex } from '../state/scoreSelectors.ts';
import { COMPARE_COLOURS } from '../../../viewport/PathOverlay.tsx';
import { Workspace } from '../../../viewport/Workspace.tsx';
import { useCommand } from '../../../ui/commands.ts';
import { closeViewer, openInScene } from '../state/links.ts';
import { frameNodes, hopReason, hopState, routeSlice, STATE_LABEL } from './routeView.ts';
import { clearPathPreview, setViewer as setViewerOf, showPathPreview } from '../state/scoreSession.ts';

const toHops = (r: ScoredRecord) => r.hops.map((h) => ({ from: h.from, to: h.to, state: hopState(h) }));

/**
 * A record's route, large: the 3D view framed on the route and sliced to its floors, the route's
 * nodes named in order (others dimmed), hop by hop (←/→ or [/]) with why each hop is or is not
 * traversable for the agent, and — on request — a second model's route for the same task in
 * another colour. `,`/`.` move to the previous/next record of the table; Escape closes.
 */
export function RouteViewer() {
  const store = useStudioStore();
  const scoringOpen = useCommand('score.open');
  const scoringOpenCompare = useCommand('score.openCompare');
  const open = useStudio((s) => s.scoring.viewer.open);
  // An import waiting for a decision, or refused, is reported in the page: the viewer steps aside (and comes back after).
  const importing = useStudio((s) => !!s.importReport && (!!s.importReport.awaiting || !s.importReport.accepted));
  const hop = useStudio((s) => s.scoring.viewer.hop);
  const compare = useStudio((s) => s.scoring.viewer.compare);
  const other = useStudio((s) => s.scoring.viewer.compareDetail);
  const id = useStudio((s) => s.scoring.selectedRecord);
  const model = useStudio((s) => s.scoring.selectedModel);
  const models = useStudio((s) => s.scoring.reports).map(([m]) => m);
  const index = useStudio(selectedIndex);
  const columns = useStudio(selectedColumns);
  const detail = useStudio((s) => s.scoring.detail);
  const project = useStudio((s) => s.document.project);
  // The full record lives where it was scored (the worker): fetch it when a row is opened.
  useEffect(() => {
    if (index >= 0 && model) void scoringOpen(model, index);
  }, [index, model, columns, scoringOpen]);
  const rec = detail && detail.id === id ? detail : undefined;
  useEffect(() => {
    if (rec) void scoringOpenCompare(rec);
  }, [compare, rec, scoringOpenCompare]);
  const scene = rec ? project?.scenes.find((s) => s.id === rec.scene) : undefined;
  const cmp = other && rec && other.scene === rec.scene && other.questionIndex === rec.questionIndex && other.agent === rec.agent && compare ? other : null;
  const gtRoute = useMemo(
    () => (rec && scene && rec.src && rec.tgt ? feasibleRoute(scene.graph, scene.labels, rec.agent, rec.src, rec.tgt) : null),
    [rec, scene],
  );
  // Kept per record (and compared record): stepping hops changes the preview, not the framing.
  const frame = useMemo(() => (rec ? { nodes: frameNodes(rec, cmp, gtRoute), key: `${rec.id}|${cmp?.id ?? ''}` } : null), [rec, cmp, gtRoute]);

  useEffect(() => {
    if (!open || !rec || !scene || !frame) {
      clearPathPreview(store);
      return;
    }
    const first = rec.pathIds[0] ?? null,
      last = rec.pathIds[rec.pathIds.length - 1] ?? null;
    const focus = hop !== null && hop < rec.hops.length ? hop : null;
    const heights = frame.nodes
      .map((nid) => scene.graph.nodes.find((n) => n.id === nid))
      .filter((n) => !!n)
      .map((n) => worldHeight(n!, scene.mesh));
    const floors = sceneFloors({ ...store.getState(), session: { ...store.getState().session, sceneId: scene.id } });
    const preview: PathPreview = {
      hops: toHops(rec),
      gtRoute,
      wrongStart: rec.src && first !== rec.src ? rec.src : null,
      wrongEnd: rec.tgt && last !== rec.tgt ? rec.tgt : null,
      focusHop: focus,
      focusNote: focus !== null ? `${focus + 1}. ${hopReason(rec.hops[focus]!, rec.agent)}` : null,
      compare: cmp ? toHops(cmp) : null,
      frame,
      slice: routeSlice(heights, floors),
    };
    showPathPreview(store, preview, scene.id, rec.agent);
  }, [open, rec, cmp, scene, frame, gtRoute, hop, store]);
  useEffect(() => () => clearPathPreview(store), [store]);

  if (!open || index < 0 || importing) return null;
  const names = new Map(scene?.graph.nodes.map((n) => [n.id, n.name || n.id]));
  const name = (nid: string | null, token?: string) => (nid ? (names.get(nid) ?? nid) : `“${token ?? '?'}” (no such node)`);
  const setViewer = (patch: Partial<{ hop: number | null; compare: string | null }>) => setViewerOf(store, patch);
  const focus = rec && hop !== null && hop < rec.hops.length ? hop : null;
  return (
    <div className="route-viewer" role="dialog" aria-label="Route of the record" data-testid="record-preview" data-record={rec?.id ?? ''}>
      <div className="rv-view">
        {rec && scene ? <Workspace /> : rec ? <p className="error">Scene {rec.scene} is not in the project.</p> : <p className="hint">Opening the record…</p>}
        {rec && (
          <p className="legend rv-legend" data-testid="route-legend">
            {cmp ? (
              <>
                <span className="sw" style={{ background: COMPARE_COLOURS[0] }} /> {rec.model}{' '}
                <span className="sw" style={{ background: COMPARE_COLOURS[1] }} /> {cmp.model} · dot on a hop: <span className="sw blocked" /> not traversable{' '}
                <span className="sw unlabelled" /> unlabelled <span className="sw invalid" /> no such edge
              </>
            ) : (
              <>
                <span className="sw traversable" /> traversable <span className="sw blocked" /> not <span className="sw unlabelled" /> unlabelled{' '}
                <span className="sw invalid" /> no such edge
              </>
            )}{' '}
            · blue dashed: a feasible ground-truth route · pink rings: where the route should start or end · numbers: the route's nodes in order
          </p>
        )}
      </div>
      <aside className="rv-side">
        <div className="rv-head">
          <button className="small secondary" onClick={() => closeViewer(store)} data-testid="close-route" title="Back to the table (Esc)">
            ✕ Close
          </button>
          {rec && (
            <button className="small secondary" onClick={() => openInScene(store, rec.scene, rec.questionIndex, rec.agent)} data-testid="route-in-scene">
              Open in the Scene view
            </button>
          )}
          <span className="muted">
            <kbd>,</kbd>/<kbd>.</kbd> records · <kbd>←</kbd>/<kbd>→</kbd> hops
          </span>
        </div>
        {!rec ? (
          <p className="hint">Opening the record…</p>
        ) : (
          <div className="record-text">
            <p>
              <strong>{rec.model}</strong> · {rec.scene} #{rec.questionIndex ?? '–'} · <strong>{rec.agent}</strong> · answered{' '}
              <strong>{rec.answer ?? `unparseable (${rec.answerRaw})`}</strong>, ground truth{' '}
              <strong>{rec.gtFeasible === null ? '–' : rec.gtFeasible ? 'feasible' : 'infeasible'}</strong> ({rec.outcome ?? rec.status})
            </p>
            <p className="q-text">{rec.question}</p>
            {rec.reason && (
              <p className="reason" data-testid="record-reason">
                Reason: {rec.reason}
              </p>
            )}
            {rec.judge &&
              (rec.judge.error ? (
                <p className="warn" data-testid="record-judge">
                  Judge ({rec.judge.judge}): not judged, RV unknown (RV and the composite are withheld) — {rec.judge.error}
                </p>
              ) : (
                <p className="muted" data-testid="record-judge">
                  Judge ({rec.judge.judge}): {rec.judge.correct ? 'matches the ground-truth notes' : 'does not match'}
                  {rec.judge.explanation ? ` — ${rec.judge.explanation}` : ''}
                </p>
              ))}
            {rec.pathErrors.length > 0 && <p className="error">Path errors: {rec.pathErrors.map((e) => e.kind).join(', ')}</p>}
            <div className="hop-stepper" data-testid="hop-stepper">
              <button
                className="small secondary"
                disabled={focus === null}
                onClick={() => setViewer({ hop: focus === null || focus === 0 ? null : focus - 1 })}
                aria-label="Previous hop"
              >
                ←
              </button>
              <span data-testid="hop-position">
                {rec.hops.length === 0
                  ? 'No hops: the route names fewer than two nodes'
                  : focus === null
                    ? `Whole route: ${rec.hops.length} hop${rec.hops.length === 1 ? '' : 's'}`
                    : `Hop ${focus + 1} of ${rec.hops.length}`}
              </span>
              <button
                className="small secondary"
                disabled={rec.hops.length === 0 || focus === rec.hops.length - 1}
                onClick={() => setViewer({ hop: focus === null ? 0 : focus + 1 })}
                aria-label="Next hop"
              >
                →
              </button>
            </div>
            {focus !== null && (
              <p className={`hop-reason ${hopState(rec.hops[focus]!)}`} data-testid="hop-reason">
                {name(rec.hops[focus]!.from, rec.pathTokens[focus])} → {name(rec.hops[focus]!.to, rec.pathTokens[focus + 1])}:{' '}
                {hopReason(rec.hops[focus]!, rec.agent)}
              </p>
            )}
            <ol className="hops" data-testid="hops">
              {rec.hops.map((h, i) => {
                const st = hopState(h);
                return (
                  <li key={i} data-hop={i} data-state={st} className={`hop ${st}${focus === i ? ' focused' : ''}`} onClick={() => setViewer({ hop: i })}>
                    <span className={`sw ${st}`} /> {name(h.from, rec.pathTokens[i])} → {name(h.to, rec.pathTokens[i + 1])}: {STATE_LABEL[st]}
                    {h.note ? ` (${h.note})` : ''}
                  </li>
                );
              })}
            </ol>
            <label className="rv-compare">
              Compare with{' '}
              <select
                value={compare ?? ''}
                aria-label="Compare the route with model"
                data-testid="compare-route"
                onChange={(e) => setViewer({ compare: e.target.value || null })}
              >
                <option value="">no other model</option>
                {models
                  .filter((m) => m !== model)
                  .map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
              </select>
            </label>
            {compare && !cmp && (
              <p className="muted" data-testid="compare-missing">
                {compare} has no prediction for this task.
              </p>
            )}
            {cmp && (
              <div className="rv-other" data-testid="compare-hops">
                <p>
                  <span className="sw" style={{ background: COMPARE_COLOURS[1] }} /> <strong>{cmp.model}</strong> answered{' '}
                  <strong>{cmp.answer ?? `unparseable (${cmp.answerRaw})`}</strong> ({cmp.outcome ?? cmp.status}){cmp.reason ? ` — ${cmp.reason}` : ''}
                </p>
                <ol className="hops">
                  {cmp.hops.map((h, i) => (
                    <li key={i} data-hop={i} data-state={hopState(h)} className={`hop ${hopState(h)}`}>
                      <span className={`sw ${hopState(h)}`} /> {name(h.from, cmp.pathTokens[i])} → {name(h.to, cmp.pathTokens[i + 1])}:{' '}
                      {hopReason(h, cmp.agent)}
                    </li>
                  ))}
                </ol>
              </div>
            )}
          </div>
        )}
      </aside>
    </div>
  );
}
