import { useEffect, useState } from 'react';
import { problemText } from '../../../core/taskgen/reply.ts';
import { FRAME_BUDGETS, type FrameBudget } from '../../../core/tour/types.ts';
import { formatVideoTime } from '../../../core/vqa/citedTimes.ts';
import { batchKey } from '../../../core/vqa/itemFilters.ts';
import { selectedScene } from '../../../state/commands.ts';
import { qaItems } from '../../qa/state/qaItems.ts';
import { setScope, startReview } from '../../review/state/qaReview.ts';
import { NO_VIDEO, type TaskGenReport, type VideoInfo } from '../state/taskGen.ts';
import { setTaskGen } from '../state/taskGenCommands.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';
import { TASKGEN_KEY_STORAGE } from '../../qa/ui/taskKey.ts';
import { notify } from '../../../state/sessionChanges.ts';

const budgetLabel = (b: FrameBudget, count?: number) => (b === '1fps' ? `1 per second${count !== undefined ? ` (${count})` : ''}` : `${b} frames`);

/**
 * Generate navigation tasks for the open scene from its touring video's frames and its node list,
 * through an OpenAI-compatible endpoint (configured like the HTTP judge; the key stays in this
 * browser). The report lists every refused task with its reason; the kept ones are in the review
 * queue, under their model (Source filter) and their run (Import filter).
 */
export function TaskGenPanel() {
  const store = useStudioStore();
  const tasksCancel = useCommand('tasks.cancel');
  const tasksGenerate = useCommand('tasks.generate');
  const tasksVideoInfo = useCommand('tasks.videoInfo');
  const scene = useStudio(selectedScene);
  const tg = useStudio((s) => s.taskgen);
  const running = tg.status.state === 'running';
  const [info, setInfo] = useState<VideoInfo | null>(null);
  const sceneId = scene?.id ?? null;
  // Looked at again after every run (a video recorded meanwhile, in another view, is found).
  useEffect(() => {
    let live = true;
    setInfo(null);
    if (sceneId)
      void tasksVideoInfo(sceneId).then((i) => {
        if (live) setInfo(i);
      });
    return () => {
      live = false;
    };
  }, [sceneId, tg.status.state, tasksVideoInfo]);
  if (!scene)
    return (
      <section className="taskgen" data-testid="taskgen">
        <p className="hint">Choose a scene first.</p>
      </section>
    );
  const budgets = info?.state === 'ready' ? info.budgets : [];
  const hasBudget = budgets.some((b) => b.budget === tg.budget);
  const ready = info?.state === 'ready' && hasBudget && tg.baseUrl.trim() !== '' && tg.model.trim() !== '' && !running;
  const why =
    info?.state === 'none'
      ? NO_VIDEO
      : info?.state === 'error'
        ? info.message
        : !hasBudget && info
          ? `The video has no ${budgetLabel(tg.budget)} set.`
          : !tg.baseUrl.trim() || !tg.model.trim()
            ? 'Give the endpoint URL and the model.'
            : '';
  return (
    <section className="taskgen" data-testid="taskgen" aria-labelledby="taskgen-title">
      <div className="taskgen-head">
        <h3 id="taskgen-title">Generate tasks · {scene.id}</h3>
        <button className="small secondary" aria-label="Close task generation" onClick={() => setTaskGen(store, { open: false })}>
          ×
        </button>
      </div>
      <p className="muted" data-testid="taskgen-video">
        {info === null ? (
          'Looking for the scene’s video…'
        ) : info.state === 'none' ? (
          <span className="bad" data-testid="taskgen-no-video">
            {NO_VIDEO}
          </span>
        ) : info.state === 'error' ? (
          <span className="bad">{info.message}</span>
        ) : (
          `From the touring video (${formatVideoTime(info.seconds)}) and the scene’s ${scene.graph.nodes.length} nodes.`
        )}
      </p>
      <label>
        Endpoint{' '}
        <input
          placeholder="https://…/v1"
          value={tg.baseUrl}
          aria-label="Task endpoint"
          disabled={running}
          onChange={(e) => setTaskGen(store, { baseUrl: e.target.value })}
        />
      </label>
      <div className="taskgen-row">
        <label>
          Model{' '}
          <input
            placeholder="model"
            value={tg.model}
            aria-label="Task model"
            disabled={running}
            onChange={(e) => setTaskGen(store, { model: e.target.value })}
          />
        </label>
        <label>
          API key{' '}
          <input
            type="password"
            placeholder="kept in this browser"
            aria-label="Task API key"
            defaultValue={localStorage.getItem(TASKGEN_KEY_STORAGE) ?? ''}
            disabled={running}
            onChange={(e) => localStorage.setItem(TASKGEN_KEY_STORAGE, e.target.value)}
          />
        </label>
      </div>
      <div className="taskgen-row">
        <label title="The model is asked for at least this many; fewer valid ones are said in the report">
          At least
          <input
            type="number"
            min={1}
            max={200}
            className="weight"
            aria-label="Tasks to ask for"
            value={tg.minTasks}
            disabled={running}
            onChange={(e) => {
              const n = Math.round(e.target.valueAsNumber);
              if (n >= 1 && n <= 200) setTaskGen(store, { minTasks: n });
            }}
          />
        </label>
        <label title="The video's uniformly sampled frames sent as images (the evaluation's frame budgets)">
          Frames
          <select aria-label="Frame budget" value={tg.budget} disabled={running} onChange={(e) => setTaskGen(store, { budget: e.target.value as FrameBudget })}>
            {FRAME_BUDGETS.map((b) => {
              const have = budgets.find((x) => x.budget === b);
              return (
                <option key={b} value={b} disabled={!!info && !have}>
                  {budgetLabel(b, have?.count)}
                  {info && !have ? ' — not in the video' : ''}
                </option>
              );
            })}
          </select>
        </label>
        <label title="A request without a reply by then is aborted and retried (up to 4 attempts)">
          Timeout (s)
          <input
            type="number"
            min={1}
            className="weight"
            aria-label="Task timeout (seconds)"
            value={tg.timeoutMs / 1000}
            disabled={running}
            onChange={(e) => {
              const sec = Number(e.target.value);
              if (sec > 0) setTaskGen(store, { timeoutMs: sec * 1000 });
            }}
          />
        </label>
      </div>
      <div className="review-actions">
        <button
          className="small"
          data-testid="taskgen-run"
          disabled={!ready}
          title={why || `Ask ${tg.model} for at least ${tg.minTasks} tasks`}
          onClick={() => void tasksGenerate()}
        >
          Generate
        </button>
        {running && (
          <button className="small danger" data-testid="taskgen-cancel" onClick={() => tasksCancel()}>
            Cancel
          </button>
        )}
        {!running && why && info !== null && (
          <span className="muted" data-testid="taskgen-why">
            {why}
          </span>
        )}
      </div>
      {tg.status.state === 'running' && <Progress stage={tg.status.stage} since={tg.status.startedAt} />}
      {tg.status.state === 'error' && (
        <p className="bad" role="alert" data-testid="taskgen-error">
          {tg.status.message}
        </p>
      )}
      {tg.report && tg.status.state !== 'running' && <Report report={tg.report} />}
    </section>
  );
}

/** The stage of the run and how long it has taken (a request may take minutes). */
function Progress({ stage, since }: { stage: string; since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, []);
  return (
    <div className="taskgen-progress" role="status" data-testid="taskgen-progress">
      <progress aria-label="Generating tasks" />
      <span>
        {stage} {Math.floor((now - since) / 1000)} s
      </span>
    </div>
  );
}

function Report({ report }: { report: TaskGenReport }) {
  const store = useStudioStore();
  const items = useStudio(qaItems);
  const refused = report.problems.filter((p) => p.severity === 'error');
  const notes = report.problems.filter((p) => p.severity === 'warning');
  const first = items.find((i) => i.id === report.itemIds[0]);
  const added = report.itemIds.length;
  const review = () => {
    if (!first) return;
    setScope(store, { scene: report.sceneId, source: `generated:${report.model}`, batch: batchKey(first) });
    setTaskGen(store, { open: false });
    if (!startReview(store)) notify(store, 'Nothing of this run waits for your review (items you already reviewed are not in your queue).');
  };
  return (
    <div className="taskgen-report" data-testid="taskgen-report">
      <p data-testid="taskgen-summary">
        {report.model}: {report.total} task{report.total === 1 ? '' : 's'} in the reply from {report.frames.count} frames
        {report.cached ? ' (the same request was answered before: the reply came from this browser’s cache)' : ''};{' '}
        <strong>{added} added to the review queue</strong>
        {refused.length ? `, ${refused.length} refused` : ''}.{added > 0 ? ' Ctrl+Z takes them all out again.' : ''}
      </p>
      {refused.length > 0 && (
        <ul className="findings" data-testid="taskgen-refused">
          {refused.map((p, i) => (
            <li key={i} className="bad">
              {problemText(p)}
            </li>
          ))}
        </ul>
      )}
      {notes.length > 0 && (
        <details open={refused.length === 0}>
          <summary>
            {notes.length} note{notes.length === 1 ? '' : 's'} (kept anyway)
          </summary>
          <ul className="findings" data-testid="taskgen-notes">
            {notes.map((p, i) => (
              <li key={i}>{problemText(p)}</li>
            ))}
          </ul>
        </details>
      )}
      {added > 0 && (
        <button className="small" data-testid="taskgen-review" onClick={review}>
          Review the {added} new task{added === 1 ? '' : 's'}
        </button>
      )}
    </div>
  );
}
