import { useMemo, useRef } from 'react';
import { selectedScene } from '../../../state/commands.ts';
import { addSceneQuestionItems, newItem, qaItems } from '../state/qaItems.ts';
import { itemsFor, reviewerOf } from '../../review/state/qaReview.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { Workspace } from '../../../viewport/Workspace.tsx';
import { useCommand, useRunCommand } from '../../../ui/commands.ts';
import { filesFromInput } from '../../../ui/pickedFiles.ts';
import { MeshBar } from '../../scene/ui/MeshBar.tsx';
import { Toolbar } from '../../../ui/Toolbar.tsx';
import { ItemEditor } from './ItemEditor.tsx';
import { ItemList } from './ItemList.tsx';
import { QaReport } from './QaReport.tsx';
import { ReviewPanel } from '../../review/ui/ReviewPanel.tsx';
import { TaxonomyPanel } from './TaxonomyPanel.tsx';
import { TaskGenPanel } from '../../tasks/ui/TaskGenPanel.tsx';
import { setTaskGen } from '../../tasks/state/taskGenCommands.ts';
import { notify, setAnnotator } from '../../../state/sessionChanges.ts';
import { setImportReviews } from '../state/qaItems.ts';

/** Question-answer items: write them anchored in the scene, review generated ones, export the accepted. */
export function QaView() {
  const store = useStudioStore();
  const runCommand = useRunCommand();
  const importQaFiles = useCommand('qa.importFiles');
  const exportQaBundle = useCommand('qa.exportBundle');
  const scene = useStudio(selectedScene);
  const mode = useStudio((s) => s.qa.mode);
  const annotator = useStudio((s) => s.session.annotator);
  const all = useStudio(qaItems);
  const reviewer = useStudio(reviewerOf);
  const scope = useStudio((s) => s.qa.scope);
  const queued = useMemo(() => itemsFor(all, 'to-review', reviewer, scope).length, [all, reviewer, scope]);
  const fileInput = useRef<HTMLInputElement>(null);
  const notice = useStudio((s) => s.ephemeral.notice);
  const importReviews = useStudio((s) => s.qa.importReviews);
  const taskgenOpen = useStudio((s) => s.taskgen.open);
  return (
    <section className="scene qa-view" aria-labelledby="qa-title">
      <header className="scene-header">
        <h2 id="qa-title">Questions and answers{scene ? ` · ${scene.id}` : ''}</h2>
        <div className="qa-modes" role="group" aria-label="Mode">
          <button className={mode === 'edit' ? 'active' : 'secondary'} data-testid="mode-write" onClick={() => runCommand('qa.write')}>
            Write
          </button>
          <button className={mode === 'review' ? 'active' : 'secondary'} data-testid="mode-review" onClick={() => runCommand('qa.review')}>
            Review ({queued} waiting)
          </button>
        </div>
        <label>
          {mode === 'review' ? 'Reviewer' : 'Author'}{' '}
          <input
            value={annotator}
            placeholder="your name"
            data-testid="qa-annotator"
            onChange={(e) => {
              setAnnotator(store, e.target.value);
            }}
          />
        </label>
        {mode === 'edit' && (
          <button
            className="small"
            data-testid="new-item"
            disabled={!scene}
            title={scene ? `A new item about ${scene.id}` : 'Choose a scene first'}
            onClick={() => newItem(store)}
          >
            + New item
          </button>
        )}
        {mode === 'edit' && scene && scene.questions.length > 0 && (
          <button
            className="small secondary"
            data-testid="review-scene-questions"
            title="Each navigation question of this scene becomes an item to review; rejecting one as hallucinated lists it in the scene"
            onClick={() => {
              const n = addSceneQuestionItems(store);
              notify(
                store,
                n ? `${n} navigation question${n === 1 ? '' : 's'} added for review.` : 'Every navigation question of this scene already has an item.',
              );
            }}
          >
            Review this scene’s navigation questions
          </button>
        )}
        <button
          className={`small ${taskgenOpen ? '' : 'secondary'}`}
          data-testid="taskgen-open"
          disabled={!scene}
          aria-expanded={taskgenOpen}
          title={scene ? `Ask a vision-language model for navigation tasks from ${scene.id}'s touring video` : 'Choose a scene first'}
          onClick={() => setTaskGen(store, { open: !taskgenOpen })}
        >
          Generate tasks…
        </button>
        <button className="small secondary" data-testid="import-items" onClick={() => fileInput.current?.click()}>
          Import items…
        </button>
        <label title="Independent reviews each imported item needs; 2 or more measures agreement (Cohen's / Fleiss' kappa)">
          reviews per item
          <input
            type="number"
            min={1}
            max={5}
            className="weight"
            data-testid="import-reviews"
            value={importReviews}
            onChange={(e) => {
              setImportReviews(store, e.target.valueAsNumber);
            }}
          />
        </label>
        <input
          ref={fileInput}
          type="file"
          multiple
          accept=".json,.jsonl,.ndjson"
          hidden
          data-testid="import-items-input"
          onChange={(e) => {
            const files = e.target.files ? filesFromInput(e.target.files) : [];
            e.target.value = '';
            if (files.length) void importQaFiles(files);
          }}
        />
        <button className="small secondary" data-testid="export-qa" onClick={() => void exportQaBundle()}>
          Export QA bundle
        </button>
      </header>
      {notice && (
        <p className="notice" role="status" data-testid="qa-notice">
          {notice}
        </p>
      )}
      <MeshBar />
      <Toolbar tools="measure" />
      <div className="scene-body">
        <div className="viewport-panel">{scene ? <Workspace /> : <p className="empty">Choose a scene on the left to see it.</p>}</div>
        <aside className="side-panel qa-side">
          {taskgenOpen && <TaskGenPanel />}
          <ItemList />
          {mode === 'review' ? <ReviewPanel /> : <ItemEditor />}
          <QaReport />
          <TaxonomyPanel />
        </aside>
      </div>
    </section>
  );
}
