import { useMemo } from 'react';
import { unlabelledScenes, unlabelledText } from '../../../core/scoring/unlabelled.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useRunCommand } from '../../../ui/commands.ts';
import { chooseScene } from '../../../state/sessionChanges.ts';

const SHOWN = 3;

/**
 * Said before anything is scored: a scene asks questions, but some agents have no label there yet,
 * so its ground truth calls every route "not doable" for them and the scores would mislead (the
 * Oracle scoring 50, RV 0). Names the scenes and agents and leads to the labelling.
 */
export function UnlabelledNotice() {
  const store = useStudioStore();
  const runCommand = useRunCommand();
  const project = useStudio((s) => s.document.project);
  const scenes = useMemo(() => (project ? unlabelledScenes(project) : []), [project]);
  if (!scenes.length) return null;
  const label = (sceneId: string) => {
    chooseScene(store, sceneId);
    runCommand('view.label');
  };
  const first = scenes[0]!;
  return (
    <div className="notice warn-box" role="status" data-testid="score-unlabelled">
      <p>
        Not labelled yet:{' '}
        {scenes.slice(0, SHOWN).map((s, i) => (
          <span key={s.sceneId} data-testid="unlabelled-scene" data-scene-id={s.sceneId}>
            {i ? '; ' : ''}
            {unlabelledText(s)}
          </span>
        ))}
        {scenes.length > SHOWN ? `; and ${scenes.length - SHOWN} more scene${scenes.length - SHOWN === 1 ? '' : 's'}` : ''}. A segment without a label counts as
        not traversable, so there every route is &ldquo;not doable&rdquo; for those agents and the scores, the Oracle&rsquo;s too, say little about a model.
      </p>
      <p className="row">
        <button className="small" onClick={() => label(first.sceneId)} data-testid="label-unlabelled">
          Label {first.sceneId}
        </button>
        <span className="muted">or import a release with its traverse files.</span>
      </p>
    </div>
  );
}
