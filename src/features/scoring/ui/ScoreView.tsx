import { DuplicatesNotice } from './DuplicatesNotice.tsx';
import { UnlabelledNotice } from './UnlabelledNotice.tsx';
import { ModelDetails } from './ModelDetail.tsx';
import { QaAnswersPanel } from './QaAnswersPanel.tsx';
import { RecordTable } from './RecordTable.tsx';
import { ReferenceTable } from './ReferenceTable.tsx';
import { RouteViewer } from './RouteViewer.tsx';
import { ScoreControls } from './ScoreControls.tsx';
import { ScoreTable } from './ScoreTable.tsx';
import { ScoreCharts } from './charts/ScoreCharts.tsx';
import { useStudio } from '../../../state/useStudio.ts';
import './score.css';

/** Score model predictions against the project's ground truth and look at where they go wrong. */
export function ScoreView() {
  const problems = useStudio((s) => s.scoring.problems);
  return (
    <section className="score-view" aria-labelledby="score-title">
      <h2 id="score-title">Score predictions</h2>
      <ScoreControls />
      <UnlabelledNotice />
      {problems.length > 0 && (
        <p className="warn" data-testid="score-problems">
          {problems.length} problem{problems.length === 1 ? '' : 's'} reading the predictions:{' '}
          {problems
            .slice(0, 3)
            .map((p) => `${p.file} ${p.location}: ${p.message}`)
            .join('; ')}
          {problems.length > 3 ? '…' : ''}
        </p>
      )}
      <DuplicatesNotice />
      <ScoreTable />
      <ReferenceTable />
      <ScoreCharts />
      <ModelDetails />
      <RecordTable />
      <RouteViewer />
      <QaAnswersPanel />
    </section>
  );
}
