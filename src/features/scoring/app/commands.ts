import { strToU8 } from 'fflate';
import { agentOrder } from '../../../core/agents.ts';
import { formatProblem } from '../../../core/problems.ts';
import type { ScoredRecord } from '../../../core/scoring/paper/types.ts';
import { table2, table2Title } from '../../../core/scoring/paper/table2.ts';
import type { ReportFiles } from '../../../core/scoring/workerProtocol.ts';
import { table2Csv, table2Latex } from '../../../formats/table2.ts';
import { download, safeName } from '../../../services/exportRelease.ts';
import type { ArgCommandsOf } from '../../../state/commandIds.ts';
import type { StudioStore } from '../../../state/store.ts';
import { readPickedText, type PickedFile } from '../../../ui/pickedFiles.ts';
import { commonFolder } from '../../projects/app/importRelease.ts';
import type { QaAnswersRunner } from './qaScoring.ts';
import type { ScoringRunner } from './scoring.ts';

declare module '../../../state/commandIds.ts' {
  interface ArgCommands {
    /** Load a model's predictions (a folder or files). */
    'score.loadFiles': (files: PickedFile[]) => Promise<void>;
    'score.addBaseline': (kind: 'random' | 'oracle') => void;
    'score.run': () => Promise<void>;
    /** Stop asking the HTTP judge; the run finishes with the records not yet judged marked "judge cancelled". */
    'score.cancel': () => void;
    /** Fetch a record in full (it stays where it was scored) for the preview. */
    'score.open': (model: string, i: number) => Promise<void>;
    /** Fetch the route viewer's compared model's record of the same task as this one. */
    'score.openCompare': (record: ScoredRecord | null) => Promise<void>;
    'score.exportJson': () => Promise<void>;
    'score.exportCsv': () => Promise<void>;
    /** The paper's Table 2 of the scored models (the same as `score --table2`), as CSV or LaTeX. */
    'score.exportTable2': (format: 'csv' | 'tex') => void;
    /** The files of the last run under the released scorer's conventions, as `score --compat reference` writes them. */
    'score.referenceFiles': () => { name: string; text: string; type: string }[];
    /** Save a file the view made (a chart as SVG or PNG), named after the project. */
    'score.saveFile': (name: string, bytes: Uint8Array, type: string) => void;
    /** A model's answers to the accepted QA items (JSONL files). */
    'qaAnswers.load': (files: PickedFile[]) => Promise<void>;
    'qaAnswers.clear': () => void;
    'qaAnswers.exportJson': () => void;
    /** The reasoning judge (FoMER RA): imported scores from a file, the HTTP judge, or none; cancel the HTTP judge. */
    'qaAnswers.loadReasoningScores': (files: PickedFile[]) => Promise<void>;
    'qaAnswers.setReasoningJudge': (judge: 'none' | 'imported' | 'http') => void;
    'qaAnswers.cancelReasoning': () => void;
  }
}

/** The Score view's commands: the navigation scorer's and the QA answers'. */
export function scoringArgCommands(
  store: StudioStore,
  scorer: ScoringRunner,
  qaAnswers: QaAnswersRunner,
  tell: (notice: string) => void,
): ArgCommandsOf<'score' | 'qaAnswers'> {
  const projectName = () => safeName(store.getState().document.project?.name ?? '') || 'traversa';
  /** A download; a failure is said, never swallowed (a click that gives no file and no word looks like a dead button). */
  const exportScores = async (name: string, pick: (f: ReportFiles) => string, type: string) => {
    try {
      const f = await scorer.reportFiles();
      if (f) download(name, strToU8(pick(f)), type);
      else tell('Nothing to export: score first.');
    } catch (e) {
      tell(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return {
    'score.loadFiles': async (picked) => {
      const wanted = picked.filter((p) => /\.(json|jsonl|txt)$/i.test(p.path));
      const { files, problems } = await readPickedText(wanted.map((p) => ({ ...p, path: p.path.split('/').slice(1).join('/') || p.path })));
      if (problems.length) {
        tell(`Not loaded: ${problems.map(formatProblem).join('; ')}`);
        return;
      }
      const folder = commonFolder(picked.map((p) => p.path));
      scorer.load(files, folder ?? `${picked.length} files`, folder ?? (picked.length === 1 ? picked[0]!.path : ''));
    },
    'score.addBaseline': (kind) => scorer.addBaseline(kind),
    'score.run': () => scorer.run(),
    'score.cancel': () => scorer.cancel(),
    'score.open': (model, i) => scorer.open(model, i),
    'score.openCompare': (record) => scorer.openCompare(record),
    'score.exportJson': () => exportScores('traversa-scores.json', (f) => f.json, 'application/json'),
    'score.exportCsv': () => exportScores('traversa-records.csv', (f) => f.csv, 'text/csv'),
    // Table 2 of the scored models, written as `score --table2` writes it.
    'score.exportTable2': (format) => {
      const { scoring, document: doc } = store.getState();
      if (!scoring.reports.length || !doc.project) {
        tell('Nothing to export: score first.');
        return;
      }
      const t = table2(scoring.reports, agentOrder(doc.project.profiles));
      const title = table2Title(
        doc.project.name,
        scoring.reports.map(([m]) => m),
        scoring.reports[0]![1].settings,
      );
      const text = format === 'csv' ? table2Csv(t, title) : table2Latex(t, title);
      download(`${projectName()}-table2.${format}`, strToU8(text), format === 'csv' ? 'text/csv' : 'application/x-tex');
    },
    'score.referenceFiles': () => scorer.referenceFiles(),
    'score.saveFile': (name, bytes, type) => download(`${projectName()}-${name}`, bytes, type),
    'qaAnswers.load': (files) => qaAnswers.load(files),
    'qaAnswers.clear': () => qaAnswers.clear(),
    'qaAnswers.exportJson': () => qaAnswers.exportJson(),
    'qaAnswers.loadReasoningScores': (files) => qaAnswers.loadReasoningScores(files),
    'qaAnswers.setReasoningJudge': (judge) => qaAnswers.setReasoningJudge(judge),
    'qaAnswers.cancelReasoning': () => qaAnswers.cancelReasoning(),
  };
}
