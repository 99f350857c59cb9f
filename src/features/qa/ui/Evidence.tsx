import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ImpliedRoute } from '../../../core/impliedRoute.ts';
import { formatVideoTime, playWindow, type CitedTime } from '../../../core/vqa/citedTimes.ts';
import type { QaItem } from '../../../core/vqa/item.ts';
import { itemCitations, openItemQuestion, openItemRoute } from '../state/evidence.ts';
import { NO_VIDEO } from '../../tasks/state/taskGen.ts';
import { useStudio } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';

type SceneVideoState = { state: 'loading' } | { state: 'none' } | { state: 'error'; message: string } | { state: 'ready'; url: string; seconds: number };

/** The scene's stored touring video as an object URL (released when the scene changes or the view goes). */
function useSceneVideo(sceneId: string): SceneVideoState {
  const tasksVideoFile = useCommand('tasks.videoFile');
  const [video, setVideo] = useState<SceneVideoState>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    setVideo({ state: 'loading' });
    tasksVideoFile(sceneId).then(
      (f) => {
        if (!live) return;
        if (!f) {
          setVideo({ state: 'none' });
          return;
        }
        url = URL.createObjectURL(f.blob);
        setVideo({ state: 'ready', url, seconds: f.seconds });
      },
      (e: unknown) => {
        if (live) setVideo({ state: 'error', message: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [sceneId, tasksVideoFile]);
  return video;
}

/**
 * Beside the item under review: its reason's cited video times as buttons that play the scene's
 * touring video from that time to the end of the range (a single time: one second) and pause,
 * and the route its question implies, start to end through the graph (also drawn in the 3D view),
 * with the references that name no node.
 */
export function Evidence({ item }: { item: QaItem }) {
  const question = useStudio(openItemQuestion);
  const route = useStudio(openItemRoute);
  const cited = useMemo(() => itemCitations(item, question?.question), [item, question]);
  if (!question && cited.length === 0) return null;
  return (
    <section className="evidence" data-testid="evidence" aria-label="Evidence">
      {route && question && <RouteText route={route} names={new Map(question.scene.graph.nodes.map((n) => [n.id, n.name || n.id]))} />}
      {cited.length > 0 ? <CitedVideo sceneId={item.sceneId} cited={cited} /> : <p className="muted">The reason cites no video time.</p>}
    </section>
  );
}

function CitedVideo({ sceneId, cited }: { sceneId: string; cited: CitedTime[] }) {
  const video = useSceneVideo(sceneId);
  const player = useRef<HTMLVideoElement>(null);
  const stopAt = useRef<number | null>(null);
  const [playing, setPlaying] = useState<number | null>(null);

  // Pause at the end of the range: checked every frame while it plays (timeupdate comes only ~4 times a second).
  useEffect(() => {
    if (playing === null) return;
    let frame = 0;
    const tick = () => {
      const v = player.current;
      const end = stopAt.current;
      if (!v || end === null) return;
      if (v.currentTime >= end || v.ended) {
        v.pause();
        if (v.currentTime > end) v.currentTime = end;
        stopAt.current = null;
        setPlaying(null);
        return;
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing]);

  const play = useCallback((c: CitedTime, k: number) => {
    const v = player.current;
    if (!v) return;
    const w = playWindow(c);
    stopAt.current = w.to;
    v.currentTime = w.from;
    void v.play().then(
      () => setPlaying(k),
      () => {
        stopAt.current = null;
        setPlaying(null);
      },
    );
  }, []);

  const ready = video.state === 'ready';
  const disabledWhy =
    video.state === 'loading'
      ? 'Loading the scene’s video…'
      : video.state === 'none'
        ? `No touring video for this scene: ${NO_VIDEO}`
        : video.state === 'error'
          ? `The stored video cannot be read: ${video.message}`
          : '';
  return (
    <div className="cited-video">
      <div className="cited-times" role="group" aria-label="Video times the reason cites">
        <span className="muted">Cited:</span>
        {cited.map((c, k) => {
          const late = ready && c.from > video.seconds;
          const label = c.point ? formatVideoTime(c.from) : `${formatVideoTime(c.from)}–${formatVideoTime(c.to)}`;
          const title = !ready
            ? disabledWhy
            : late
              ? `${c.text} is after the video's end (${formatVideoTime(video.seconds)})`
              : `Play ${c.point ? `from ${label} for a second` : label}${c.reversed ? ` (written ${c.text}: the route walks this stretch against the tour)` : ''}`;
          return (
            <button
              key={k}
              className={`small secondary cite${playing === k ? ' playing' : ''}`}
              data-testid="cite"
              data-from={c.from}
              data-to={playWindow(c).to}
              disabled={!ready || late}
              title={title}
              onClick={() => play(c, k)}
            >
              ▶ {label}
              {c.reversed ? ' ⇄' : ''}
            </button>
          );
        })}
      </div>
      {ready ? (
        <video
          ref={player}
          src={video.url}
          muted
          playsInline
          controls
          preload="auto"
          data-testid="evidence-video"
          onPause={() => {
            stopAt.current = null;
            setPlaying(null);
          }}
        />
      ) : (
        <p className={video.state === 'loading' ? 'muted' : 'bad'} data-testid="evidence-no-video">
          {disabledWhy}
        </p>
      )}
    </div>
  );
}

function RouteText({ route, names }: { route: ImpliedRoute; names: Map<string, string> }) {
  const broken = route.legs.filter((l) => l.path === null);
  return (
    <div className="implied-route" data-testid="implied-route">
      <p className="route-line">
        <span className="muted">Route it implies:</span>{' '}
        {route.nodes.length ? (
          route.nodes.map((id, i) => (
            <span key={`${id}:${i}`}>
              {i > 0 && ' → '}
              <span className="route-node" data-route-node={id}>
                {i + 1} {names.get(id) ?? id}
              </span>
            </span>
          ))
        ) : (
          <span className="bad">none (no reference names a node)</span>
        )}
      </p>
      {route.unresolved.map((u, i) => (
        <p key={i} className="bad" data-testid="route-unresolved">
          Not in the graph: the {u.role === 'intermediate' ? 'intermediate node' : `${u.role} node`} “{u.raw}” ({u.reason}).
        </p>
      ))}
      {broken.map((l, i) => (
        <p key={`b${i}`} className="bad" data-testid="route-broken">
          No way through the graph from {names.get(l.from) ?? l.from} to {names.get(l.to) ?? l.to}.
        </p>
      ))}
    </div>
  );
}
