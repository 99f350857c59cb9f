import type { Project } from '../core/project.ts';
import { rewardOf } from '../core/research/reward.ts';
import { formatProblem } from '../core/problems.ts';
import { readPredictionJsonl } from '../formats/predictions/jsonl.ts';
import { InputError } from './files.ts';
import { parseWeights } from './score.ts';

/**
 * `traversa reward --gt <release> --pred <answers.jsonl | ->`: one JSON line per answer with its
 * reward and the per-record terms the benchmark scores (core/research/reward.ts), in input order.
 * A line that cannot be read stops the command with its place: a training loop should not learn
 * from a silently dropped answer.
 */
export function rewardCommand(project: Project, input: { path: string; text: string }, weightsFlag: string | undefined): string {
  const weights = parseWeights(weightsFlag);
  const { predictions, problems } = readPredictionJsonl(input, 'policy');
  if (problems.length) throw new InputError(problems.map(formatProblem).join('\n'));
  return predictions.map((p) => JSON.stringify({ location: p.location, ...rewardOf(project, p, weights) })).join('\n');
}
