import { forEachAtMost } from '../concurrency.ts';
import type { ChatFailure } from '../scoring/judges/http.ts';
import type { FrameBudget } from '../tour/types.ts';
import { variantSuffix } from './spatial.ts';
import type { EvalInput, SpatialPart } from './types.ts';

/**
 * A model's answer to one input, as the cache keeps it: the reading of the reply (made from the
 * whole reply), the reply itself (redacted and cut, for whoever wants to see why), the tokens it
 * cost and how long it took. The result item written for the input is made from `reading`.
 */
export interface ModelAnswer<R = unknown> {
  reading: R;
  content: string;
  usage: { prompt: number; completion: number };
  ms: number;
}

export type InputOutcome<R> =
  | { kind: 'answered'; answer: ModelAnswer<R>; cached: boolean }
  | { kind: 'failed'; error: string }
  /** Never asked: the run stopped first (a refused endpoint, an interruption). */
  | { kind: 'skipped' };

export interface RunProgress {
  done: number;
  total: number;
  cached: number;
  /** Requests answered by the endpoint in this run (a cache hit is not one). */
  requested: number;
  failed: number;
  /** Milliseconds since the run started. */
  elapsedMs: number;
  tokens: { prompt: number; completion: number };
}

export interface RunDeps<R> {
  /** Ask the endpoint (retries included); a failure comes back as `{ error, status? }`. */
  ask(input: EvalInput): Promise<ModelAnswer<R> | ChatFailure>;
  /** The cached answer to this input, if any. */
  cached(input: EvalInput): Promise<ModelAnswer<R> | undefined>;
  /** Keep an answer (awaited before the input counts as done, so an interrupted run loses none it reported). */
  store(input: EvalInput, answer: ModelAnswer<R>): Promise<void>;
  /** Requests in flight at most. */
  concurrency: number;
  now(): number;
  onProgress?(p: RunProgress): void;
  /** Checked before each request: true stops the run (an interruption). */
  stopped?(): boolean;
}

export interface RunOutcome<R> {
  /** In input order. */
  outcomes: InputOutcome<R>[];
  /** Why the run stopped before asking everything, if it did. */
  stoppedBy: string | null;
  progress: RunProgress;
}

/** HTTP statuses after which every other request would be refused the same way: the run stops. */
const REFUSALS = new Set([401, 403, 404]);
/** When this many first requests all failed, the endpoint is taken to be unusable and the run stops. */
const FIRST_FAILURES = 3;

/**
 * Ask every input, at most `concurrency` at a time, each from the cache when it holds the answer.
 * An answer is stored as soon as it arrives, so a run stopped anywhere (killed, interrupted) is
 * resumed by running it again: what was answered is not asked again. A refusal (HTTP 401, 403,
 * 404) or failures of all of the first three requests stop the run: everything else would fail too.
 */
export async function runInputs<R>(inputs: readonly EvalInput[], deps: RunDeps<R>): Promise<RunOutcome<R>> {
  const started = deps.now();
  const outcomes: InputOutcome<R>[] = inputs.map(() => ({ kind: 'skipped' }));
  const progress: RunProgress = { done: 0, total: inputs.length, cached: 0, requested: 0, failed: 0, elapsedMs: 0, tokens: { prompt: 0, completion: 0 } };
  let stoppedBy: string | null = null;
  let firstTries = 0,
    firstFailures = 0;
  const report = () => {
    progress.elapsedMs = deps.now() - started;
    deps.onProgress?.({ ...progress, tokens: { ...progress.tokens } });
  };

  const keepGoing = (): boolean => {
    if (stoppedBy !== null) return false;
    if (deps.stopped?.()) {
      stoppedBy = 'interrupted';
      return false;
    }
    return true;
  };
  await forEachAtMost(
    inputs,
    deps.concurrency,
    async (input, i) => {
      const hit = await deps.cached(input);
      if (hit) {
        outcomes[i] = { kind: 'answered', answer: hit, cached: true };
        progress.cached++;
      } else {
        const counted = firstTries < FIRST_FAILURES;
        if (counted) firstTries++;
        const answer = await deps.ask(input);
        // A request cut short by the interruption was not answered, nor did it fail: it is not asked.
        if ('error' in answer && deps.stopped?.()) {
          stoppedBy = 'interrupted';
          return;
        }
        if ('error' in answer) {
          outcomes[i] = { kind: 'failed', error: answer.error };
          progress.failed++;
          if (counted) firstFailures++;
          if (answer.status !== undefined && REFUSALS.has(answer.status)) stoppedBy ??= `the endpoint refused a request (${answer.error})`;
          // A redirect (0: a browser's, hidden) is not followed, and every other request would meet it too.
          else if (answer.status !== undefined && (answer.status === 0 || (answer.status >= 300 && answer.status < 400))) stoppedBy ??= answer.error;
          else if (firstFailures === FIRST_FAILURES && progress.requested === 0)
            stoppedBy ??= `the first ${FIRST_FAILURES} requests all failed (the last: ${answer.error})`;
        } else {
          await deps.store(input, answer);
          outcomes[i] = { kind: 'answered', answer, cached: false };
          progress.requested++;
          progress.tokens.prompt += answer.usage.prompt;
          progress.tokens.completion += answer.usage.completion;
        }
      }
      progress.done++;
      report();
    },
    keepGoing,
  );
  progress.elapsedMs = deps.now() - started;
  return { outcomes, stoppedBy, progress };
}

/**
 * The results folder of a model at a frame budget, CapNav's `<model_setting>` (e.g.
 * `gemini-2.5-pro_64f`): the model name with anything but letters, digits, `.`, `_` and `-`
 * made `-` (a `/` in `Qwen/Qwen2.5-VL` would make a folder), then the budget, then the spatial
 * information the inputs add, if any (`gpt-4o_16f_with-depth+graph`, parts in SPATIAL_PARTS order).
 */
export function modelSettingName(model: string, budget: FrameBudget, parts: readonly SpatialPart[] = []): string {
  const name =
    model
      .trim()
      .replace(/[^\w.-]+/g, '-')
      .replace(/^[-.]+/, '') || 'model';
  return `${name}_${budget === '1fps' ? '1fps' : `${budget}f`}${variantSuffix(parts)}`;
}
