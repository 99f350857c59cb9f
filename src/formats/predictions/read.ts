import { append } from '../../core/arrays.ts';
import { SCORER_OUTPUTS, type PredictionReaders } from '../../core/scoring/pipeline.ts';
import type { SourceFile } from '../json.ts';
import { problem, type PredictionRead } from './common.ts';
import { readPredictionJsonl } from './jsonl.ts';
import { readRunnerFile } from './runner.ts';
import { readPredictionText } from './text.ts';
import { readVerdictFile } from './verdicts.ts';

/**
 * Read every prediction file of a results folder: `.json` as CapNav runner output (runner.ts),
 * `.jsonl` as Traversa's JSONL (jsonl.ts), `.txt` as older one-line free text (text.ts). Paths
 * are relative to the results root. A bad file is reported and the others are still read.
 * `defaultModel` names the model of files not under a `<model_setting>/<SCENE>/` folder.
 */
export function readPredictions(files: readonly SourceFile[], defaultModel = 'model'): PredictionRead {
  const out: PredictionRead = { predictions: [], problems: [] };
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const name = file.path.split('/').pop()!;
    if (SCORER_OUTPUTS.has(name)) continue;
    const ext = name.toLowerCase().replace(/^.*(\.[^.]+)$/, '$1');
    const part =
      ext === '.json'
        ? readRunnerFile(file, defaultModel)
        : ext === '.jsonl'
          ? readPredictionJsonl(file)
          : ext === '.txt'
            ? readPredictionText(file, defaultModel)
            : { predictions: [], problems: [problem('warning', 'file.ignored', file.path, '', 'not a prediction file (.json, .jsonl or .txt); ignored')] };
    append(out.predictions, part.predictions);
    append(out.problems, part.problems);
  }
  return out;
}

/** The readers the scoring pipeline is handed (core/scoring/pipeline.ts), by the command line and the browser alike. */
export const predictionReaders: PredictionReaders = { predictions: readPredictions, verdicts: readVerdictFile };
