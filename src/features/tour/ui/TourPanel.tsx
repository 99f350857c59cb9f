import { useEffect, useRef, useState } from 'react';
import { parseSize, settingsProblem, type TourSettings } from '../../../core/tour/settings.ts';
import { formatVideoTime } from '../../../core/vqa/citedTimes.ts';
import type { SceneVideo } from '../../../persistence/videos.ts';
import { isEnabled, selectedScene } from '../../../state/commands.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useCommand, useCommandList, useRunCommand } from '../../../ui/commands.ts';
import { displayShortcut } from '../../../ui/shortcuts.ts';
import type { CommandId } from '../../../state/commandIds.ts';
import { setTourSettings } from '../state/tourSession.ts';

/** A frame time as the reasons and buttons write video times, to the tenth (frames fall on half seconds at 2 fps). */
const clock = (t: number): string => formatVideoTime(t, 1);

/**
 * The scene's touring video: the settings (CapNav's by default), recording the automatic tour or a
 * walked path, progress and cancel, and the stored video with the times each node is in view
 * (click one to see it) and its downloads.
 */
export function TourPanel() {
  const store = useStudioStore();
  const commands = useCommandList();
  const runCommand = useRunCommand();
  const loadVideo = useCommand('tour.load');
  const scene = useStudio(selectedScene);
  const mesh = useStudio((s) => (scene ? s.meshes[scene.id] : undefined));
  const tour = useStudio((s) => s.tour);
  // The buttons run the named commands, and are enabled exactly when those are (one rule, in features/tour/app/tour.ts).
  const can = (id: CommandId) => (s: Parameters<typeof isEnabled>[1]) => {
    const c = commands.find((x) => x.id === id);
    return !!c && isEnabled(c, s);
  };
  const canRecord = useStudio(can('tour.record'));
  const canWalk = useStudio(can('tour.walk'));
  const [video, setVideo] = useState<SceneVideo | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const sceneId = scene?.id ?? null;

  useEffect(() => {
    let live = true;
    setVideo(null);
    setLoadError(null);
    if (sceneId)
      loadVideo(sceneId).then(
        (v) => {
          if (live) setVideo(v ?? null);
        },
        (e: unknown) => {
          if (live) setLoadError(e instanceof Error ? e.message : String(e));
        },
      );
    return () => {
      live = false;
    };
  }, [loadVideo, sceneId, tour.stored]);

  if (!scene) return null;
  const ready = mesh?.state === 'ready';
  const nodes = scene.graph.nodes.length;
  const running = tour.phase === 'recording' && tour.sceneId === scene.id;
  const walking = tour.phase === 'walking' && tour.sceneId === scene.id;
  const busy = tour.phase === 'recording' || tour.phase === 'walking';
  const problem = settingsProblem(tour.settings);
  const key = (id: CommandId) => commands.find((c) => c.id === id)?.shortcut;

  return (
    <div className="tour-panel" data-testid="tour-panel">
      {!ready || nodes === 0 ? (
        <p className="hint" data-testid="tour-empty">
          {!ready ? 'The touring video is rendered from the scene’s scan: load one (Load scan… above). ' : ''}
          {nodes === 0 ? 'The automatic tour walks through every node of the graph: draw it first (N places a node, C connects).' : ''}
          {ready && nodes === 0 ? ' A walked tour needs no graph: use Walk a tour.' : ''}
        </p>
      ) : null}
      <h3>Camera</h3>
      <Settings settings={tour.settings} disabled={busy} onChange={(settings) => setTourSettings(store, settings)} />
      {problem && (
        <p className="error" data-testid="tour-settings-problem">
          Cannot record: {problem}.
        </p>
      )}
      <div className="row">
        <button
          data-testid="tour-record"
          disabled={!canRecord}
          onClick={() => runCommand('tour.record')}
          title={key('tour.record') ? displayShortcut(key('tour.record')!) : undefined}
        >
          {video ? 'Record the automatic tour again' : 'Record automatic tour'}
          {key('tour.record') && <kbd>{displayShortcut(key('tour.record')!)}</kbd>}
        </button>
        <button className="secondary" data-testid="tour-walk" disabled={!canWalk} onClick={() => runCommand('tour.walk')}>
          {walking ? 'Stop and render the walk' : 'Walk a tour'}
          {key('tour.walk') && <kbd>{displayShortcut(key('tour.walk')!)}</kbd>}
        </button>
      </div>
      {(running || walking) && (
        <div className="row">
          {running && <progress max={1} value={tour.fraction} aria-label="Recording the tour" data-testid="tour-progress" />}
          <button className="secondary small" data-testid="tour-cancel" onClick={() => runCommand('tour.cancel')}>
            Cancel
          </button>
        </div>
      )}
      {tour.sceneId === scene.id && tour.message && (
        <p className={`notice${tour.phase === 'failed' ? ' error' : ''}`} data-testid="tour-message" role="status">
          {tour.message}
        </p>
      )}
      {loadError && (
        <p className="error" data-testid="tour-load-error">
          {loadError}
        </p>
      )}
      {video && <StoredVideo video={video} names={new Map(scene.graph.nodes.map((n) => [n.id, n.name || n.id]))} sceneId={scene.id} />}
    </div>
  );
}

function Settings({ settings, disabled, onChange }: { settings: TourSettings; disabled: boolean; onChange: (s: TourSettings) => void }) {
  const [size, setSize] = useState(`${settings.width}×${settings.height}`);
  useEffect(() => setSize(`${settings.width}×${settings.height}`), [settings.width, settings.height]);
  const num = (label: string, unit: string, value: number, testId: string, patch: (v: number) => Partial<TourSettings>, step = 'any') => (
    <label>
      {label}{' '}
      <input
        type="number"
        step={step}
        value={value}
        disabled={disabled}
        data-testid={testId}
        style={{ width: '5em' }}
        onChange={(e) => onChange({ ...settings, ...patch(e.target.valueAsNumber) })}
      />{' '}
      {unit}
    </label>
  );
  return (
    <div className="tour-settings">
      {num('Frames per second', 'fps', settings.fps, 'tour-fps', (fps) => ({ fps }))}
      {num('Field of view', '°', settings.fovDeg, 'tour-fov', (fovDeg) => ({ fovDeg }))}
      {num('Eye height', 'm above the floor', settings.eyeHeightM, 'tour-eye', (eyeHeightM) => ({ eyeHeightM }))}
      {num('Pace', 'm/s', settings.paceMps ?? 1, 'tour-pace', (paceMps) => ({ paceMps }))}
      <label>
        Size{' '}
        <input
          value={size}
          disabled={disabled}
          data-testid="tour-size"
          style={{ width: '7em' }}
          onChange={(e) => setSize(e.target.value)}
          onBlur={() => {
            const s = parseSize(size);
            if (s) onChange({ ...settings, width: s[0], height: s[1] });
            else setSize(`${settings.width}×${settings.height}`);
          }}
        />{' '}
        px
      </label>
    </div>
  );
}

function StoredVideo({ video, names, sceneId }: { video: SceneVideo; names: Map<string, string>; sceneId: string }) {
  const download = useCommand('tour.download');
  const player = useRef<HTMLVideoElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const u = URL.createObjectURL(video.blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [video.blob]);
  const p = video.poses;
  const seek = (t: number) => {
    const v = player.current;
    if (!v) return;
    v.pause();
    // Half a frame in: the frame shown for time t, not the one before it.
    v.currentTime = t + 0.5 / p.fps;
  };
  const seen = p.nodesInView.filter((n) => n.intervals.length > 0);
  const unseen = p.nodesInView.filter((n) => n.intervals.length === 0);
  return (
    <div className="tour-video" data-testid="tour-stored">
      <h3>Stored video</h3>
      <p className="muted" data-testid="tour-summary">
        {p.frames.length} frames at {p.fps} fps ({clock(p.frames.length / p.fps)}), {p.width}×{p.height}, {p.fovDeg}° field of view, eye {p.eyeHeightM} m ·{' '}
        {video.mime.split(';')[0]}
      </p>
      {url && <video ref={player} src={url} controls preload="auto" width={Math.min(p.width, 360)} data-testid="tour-video" />}
      <div className="row">
        <button className="secondary small" data-testid="tour-download-video" onClick={() => download(sceneId, 'video')}>
          Video
        </button>
        <button className="secondary small" data-testid="tour-download-poses" onClick={() => download(sceneId, 'poses')}>
          Poses JSON
        </button>
        <button className="secondary small" data-testid="tour-download-frames" onClick={() => download(sceneId, 'frames')}>
          Frame sets (zip)
        </button>
      </div>
      <h3>
        Nodes in view{' '}
        <span className="muted">
          ({seen.length} of {p.nodesInView.length})
        </span>
      </h3>
      <ul className="list" data-testid="tour-nodes">
        {seen.map((n) => (
          <li key={n.node}>
            <span className="name">{names.get(n.node) ?? n.node}</span>{' '}
            {n.intervals.map(([a, b], i) => (
              <button key={i} className="secondary small" data-tour-node={n.node} data-from={a} onClick={() => seek(a)}>
                {clock(a)}
                {b > a ? `–${clock(b)}` : ''}
              </button>
            ))}
          </li>
        ))}
      </ul>
      {unseen.length > 0 && (
        <p className="notice" data-testid="tour-unseen">
          Never in view: {unseen.map((n) => names.get(n.node) ?? n.node).join(', ')}.
        </p>
      )}
    </div>
  );
}
