import type { Scene } from '../../../core/project.ts';
import { disagree, namedVotes, votesOf } from '../../../core/labelVotes.ts';
import { useEffect, useMemo, useRef } from 'react';
import { agentOrder } from '../../../core/agents.ts';
import { adjacency } from '../../../core/graph.ts';
import { isFeasible } from '../../../core/feasibility.ts';
import { existingLabel, queueProgress, type Progress } from '../../../core/queue.ts';
import { REASONS, REASON_LABEL } from '../../../core/rules.ts';
import { selectedScene } from '../../../state/commands.ts';
import { REASON_KEYS, toggleDraftReason } from '../state/queueCommands.ts';
import { currentDrive, currentItem, sceneQueue } from '../state/queueSelectors.ts';
import { suggestionFor, suggestionsStale } from '../../suggestions/state/suggestionSelectors.ts';
import { useStudio, useStudioShallow, useStudioStore } from '../../../state/useStudio.ts';
import { useCommand, useRunCommand } from '../../../ui/commands.ts';
import { setAnnotator } from '../../../state/sessionChanges.ts';
import { editDraft, setAutoApproveHuman } from '../state/labelSession.ts';

const bar = (p: Progress | undefined, label: string, testId?: string) => (
  <div className="progress-row" data-testid={testId}>
    <span>{label}</span>
    <progress max={Math.max(1, p?.total ?? 0)} value={p?.done ?? 0} />
    <span className="muted">
      {p?.done ?? 0} / {p?.total ?? 0}
    </span>
  </div>
);

/** The labelling queue: one segment, one agent at a time, decided with the keyboard. */
export function QueuePanel() {
  const store = useStudioStore();
  const runCommand = useRunCommand();
  const computeSuggestions = useCommand('suggestions.compute');
  const scene = useStudio(selectedScene);
  const items = useStudio(sceneQueue);
  const item = useStudio(currentItem);
  const session = useStudio((s) => s.session);
  const teamUser = useStudio((s) => (s.team.state === 'off' ? null : (s.team.user ?? null)));
  const notice = useStudio((s) => s.ephemeral.notice);
  const noteRequest = useStudio((s) => s.ephemeral.noteRequest);
  const suggestions = useStudio((s) => (scene ? s.suggestions[scene.id] : undefined));
  const stale = useStudio((s) => (scene ? suggestionsStale(s, scene.id) : null));
  const sug = useStudio((s) => {
    const it = currentItem(s);
    return scene && it ? suggestionFor(s, scene.id, it) : undefined;
  });
  const profiles = useStudioShallow((s) => s.document.project?.profiles ?? []);
  const drive = useStudio(currentDrive);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (noteRequest) noteRef.current?.focus();
  }, [noteRequest]);
  const progress = useMemo(() => (scene ? queueProgress(scene, items, session.annotator) : null), [scene, items, session.annotator]);
  const adj = useMemo(() => (scene ? adjacency(scene.graph) : null), [scene]);
  if (!scene) return null;
  if (!items.length) return <p className="empty">This scene has no questions to label (none, all hallucinated, or with unresolved references).</p>;
  if (!item || !progress || !adj) return null;

  const q = scene.questions[item.questionIndex]!;
  const names = new Map(scene.graph.nodes.map((n) => [n.id, n.name || n.id]));
  const label = existingLabel(scene, item);
  // What the annotator types is theirs (`by`): undo keeps it, unlike a draft a drive proposed.
  const setDraft = (patch: Partial<typeof session.labelDraft>) => editDraft(store, patch);
  const agents = agentOrder(profiles);
  const start = q.start.nodeId!,
    end = q.end.nodeId!;

  return (
    <section className="queue-panel" data-testid="queue-panel" aria-label="Labelling queue">
      <div className="queue-settings">
        <label>
          Annotator{' '}
          <input
            value={session.annotator}
            placeholder="your name"
            data-testid="annotator"
            readOnly={!!teamUser}
            title={teamUser ? `Signed in to the team database as ${teamUser}: your labels carry that name` : 'Your labels carry this name'}
            onChange={(e) => setAnnotator(store, e.target.value)}
          />
        </label>
        <label>
          <input type="checkbox" checked={session.autoApproveHuman} data-testid="auto-approve" onChange={(e) => setAutoApproveHuman(store, e.target.checked)} />{' '}
          Auto-approve HUMAN
        </label>
        <button
          className="small secondary"
          onClick={() => void computeSuggestions(scene.id)}
          disabled={!scene.mesh || suggestions?.state === 'running'}
          data-testid="compute-suggestions"
          title={scene.mesh ? 'Measure every edge in the scan and suggest a label per agent' : 'Needs the scene’s scan'}
        >
          {suggestions?.state === 'ready' ? 'Recompute suggestions' : 'Suggest labels'}
        </button>
        {suggestions?.state === 'running' && <progress max={1} value={suggestions.fraction} aria-label={suggestions.message} data-testid="suggest-progress" />}
        {suggestions?.state === 'error' && (
          <span className="error" role="alert">
            {suggestions.message}
          </span>
        )}
        {suggestions?.state === 'ready' && suggestions.unsaved && (
          <span className="warn" role="alert">
            {suggestions.unsaved}
          </span>
        )}
        {suggestions?.state === 'ready' && suggestions.kept && (
          <span className="muted" data-testid="suggestions-kept">
            computed {new Date(suggestions.computedAt).toLocaleString()}, kept with the project
          </span>
        )}
        {stale && (
          <span className="warn" role="status" data-testid="suggestions-stale">
            Suggestions out of date: {stale}. Recompute them.
          </span>
        )}
      </div>
      {bar(progress.scene, 'Scene', 'progress-scene')}
      {bar(progress.byAgent[item.agent], item.agent)}
      {bar(progress.byQuestion[item.questionIndex], `Question #${item.questionIndex}`)}

      <div className="queue-question">
        <div className="q-text">
          <span className="q-index">#{item.questionIndex}</span> {q.text.replace('[Agent]', item.agent)}
        </div>
        <div className="feasibility" data-testid="queue-feasibility">
          {agents.map((a) => {
            const ok = isFeasible(scene.graph, scene.labels, a, start, end, adj);
            const p = progress.byQuestionAgent[`${item.questionIndex}:${a}`];
            return (
              <span
                key={a}
                className={`feas ${ok ? 'yes' : 'no'}${a === item.agent ? ' current' : ''}`}
                data-agent={a}
                title={`${a}: ${ok ? 'feasible' : 'not feasible'} with the labels so far (${p?.done ?? 0}/${p?.total ?? 0} labelled)`}
              >
                {a} {ok ? '✓' : '✗'}
              </span>
            );
          })}
        </div>
      </div>

      {/* Above the segment, so the confirmation of a decision is in view on a 1280×720 screen. */}
      {notice && (
        <p className="notice" role="status" data-testid="queue-notice">
          {notice}
        </p>
      )}
      <div className="queue-item" data-testid="queue-item" data-agent={item.agent} data-segment={`${item.from}|${item.to}`}>
        <div className="segment">
          <strong>{item.agent}</strong>: {names.get(item.from)} → {names.get(item.to)}{' '}
          <span className="muted">
            ({session.queueCursor + 1} of {items.length})
          </span>
        </div>
        {label && (
          <div className={`existing ${label.traversable ? 'yes' : 'no'}`} data-testid="existing-label">
            Labelled {label.traversable ? 'traversable' : 'not traversable'}
            {label.note ? `: ${label.note}` : ''}
            {label.annotator ? ` — ${label.annotator}` : ''}
          </div>
        )}
        <OtherVotes scene={scene} agent={item.agent} from={item.from} to={item.to} />
        {sug ? (
          <div className={`suggestion ${sug.traversable ? 'yes' : 'no'}`} data-testid="suggestion">
            Suggested: {sug.traversable ? 'traversable' : `not traversable — ${sug.note}`} <kbd>Enter</kbd> accepts
            {sug.navmeshRoute === false && sug.traversable && <span className="warn"> (the agent’s navigation mesh found no route)</span>}
            {sug.doubt && (
              <div className="warn" data-testid="suggestion-doubt">
                Not settled by the scan: {sug.doubt}
              </div>
            )}
          </div>
        ) : (
          <div className="muted">
            {stale
              ? 'No suggestion: the kept ones are out of date.'
              : scene.mesh
                ? 'No suggestion yet: “Suggest labels” measures the scan.'
                : 'No scan: decide by the questions and your knowledge of the scene.'}
          </div>
        )}
        {sug && drive?.source === 'planner' && (drive.reached !== sug.traversable || (!drive.reached && drive.reason !== sug.reason)) && (
          <div className="warn" role="status" data-testid="drive-disagrees">
            The drive and the suggestion disagree — drive:{' '}
            {drive.reached ? 'reached the next node' : `stopped (${drive.reason ? REASON_LABEL[drive.reason] : 'other'}): ${drive.note}`}; suggestion:{' '}
            {sug.traversable ? 'traversable' : `not traversable (${sug.reason ? REASON_LABEL[sug.reason] : 'other'})`}. Look at both in the scan before
            deciding.
          </div>
        )}
      </div>

      <div className="reasons" role="group" aria-label="Reason">
        {REASONS.map((r) => (
          <button
            key={r}
            className={`chip${session.labelDraft.reason === r ? ' active' : ''}`}
            aria-pressed={session.labelDraft.reason === r}
            data-reason={r}
            onClick={() => toggleDraftReason(store, r)}
          >
            {REASON_LABEL[r]} <kbd>{REASON_KEYS[r]}</kbd>
          </button>
        ))}
      </div>
      <textarea
        ref={noteRef}
        rows={2}
        placeholder="Note (/ to write; Escape leaves the field)"
        value={session.labelDraft.note}
        data-testid="label-note"
        onChange={(e) => setDraft({ note: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Escape') e.currentTarget.blur();
        }}
      />
      <div className="decide">
        <button onClick={() => runCommand('label.traversable')} data-testid="label-yes">
          Traversable <kbd>Y</kbd>
        </button>
        <button className="danger" onClick={() => runCommand('label.blocked')} data-testid="label-no">
          Not traversable <kbd>X</kbd>
        </button>
        <button className="secondary" onClick={() => runCommand('queue.previous')}>
          Previous <kbd>,</kbd>
        </button>
        <button className="secondary" onClick={() => runCommand('queue.next')}>
          Next <kbd>.</kbd>
        </button>
        <button className="secondary" onClick={() => runCommand('queue.previousQuestion')}>
          Question <kbd>[</kbd>
        </button>
        <button className="secondary" onClick={() => runCommand('queue.nextQuestion')}>
          Question <kbd>]</kbd>
        </button>
        <button className="secondary" onClick={() => runCommand('queue.nextAgent')}>
          Agent <kbd>A</kbd>
        </button>
        <button className="secondary" onClick={() => runCommand('queue.toggleHallucinated')}>
          Hallucinated <kbd>H</kbd>
        </button>
      </div>
    </section>
  );
}

/** The other annotators' labels of this segment, so a dispute is seen where it is labelled. */
function OtherVotes({ scene, agent, from, to }: { scene: Scene; agent: string; from: string; to: string }) {
  const table = votesOf(scene)[agent] ?? {};
  const votes = table[`${from}|${to}`] ?? table[`${to}|${from}`];
  const named = namedVotes(votes);
  if (named.length < 2) return null;
  const disputed = disagree(votes) && !scene.adjudications?.[agent]?.[`${from}|${to}`] && !scene.adjudications?.[agent]?.[`${to}|${from}`];
  return (
    <div className={disputed ? 'warn' : 'muted'} data-testid="other-votes">
      {disputed ? 'Disputed — ' : 'Labelled by '}
      {named.map(([who, l]) => `${who}: ${l.traversable ? 'traversable' : 'not traversable'}`).join('; ')}
    </div>
  );
}
