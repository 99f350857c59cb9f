import type { RunOutcome, RunProgress } from '../core/evalinputs/run.ts';
import type { EvalInput, SpatialPart } from '../core/evalinputs/types.ts';
import type { FrameBudget } from '../core/tour/types.ts';
import type { ReadReply } from '../formats/predictions/modelReply.ts';

/** What a run-model run was and did, for its summary. */
export interface RunFacts {
  model: string;
  endpointHost: string;
  budget: FrameBudget;
  /** The spatial information the inputs add (empty: frames only). */
  with: readonly SpatialPart[];
  setting: string;
  startedAt: Date;
  concurrency: number;
  retries: number;
  inputs: readonly EvalInput[];
  excluded: number;
  run: RunOutcome<ReadReply>;
}

/** The run summary's name: both scorers skip it (paper mode by name, the released scorer by its `_summary.json` ending). */
export const RUN_SUMMARY = 'run_summary.json';

const tokenSum = (prompt: number, completion: number) => ({ prompt, completion, total: prompt + completion });

/**
 * The run summary (`<out>/<model_setting>/run_summary.json`): the model, the endpoint's host
 * (never its credentials), the prompt version, the frame set and the spatial information added
 * (`with`), counts, the tokens the run cost (from the replies' `usage`; answers from the cache cost
 * nothing this run and are counted apart), its time and rate, and every failed or unreadable input.
 */
export function runSummary(f: RunFacts) {
  const { outcomes, progress, stoppedBy } = f.run;
  let unreadable = 0,
    cachedPrompt = 0,
    cachedCompletion = 0,
    requestMs = 0;
  const failures: Record<string, unknown>[] = [];
  const unreadables: Record<string, unknown>[] = [];
  const where = (i: EvalInput) => ({ scene: i.scene, agent: i.agent, question_index: i.questionIndex, prompt_file: i.promptFile });
  outcomes.forEach((o, k) => {
    const input = f.inputs[k]!;
    if (o.kind === 'failed') failures.push({ ...where(input), error: o.error });
    if (o.kind !== 'answered') return;
    if (o.cached) {
      cachedPrompt += o.answer.usage.prompt;
      cachedCompletion += o.answer.usage.completion;
    } else requestMs += o.answer.ms;
    if (o.answer.reading.kind === 'unreadable') {
      unreadable++;
      unreadables.push({ ...where(input), why: o.answer.reading.why });
    }
  });
  const seconds = progress.elapsedMs / 1000;
  return {
    format: 'traversa-run-model',
    version: 1,
    model: f.model,
    endpoint_host: f.endpointHost,
    prompt_version: f.inputs[0]?.promptVersion ?? null,
    frames: f.budget,
    with: [...f.with],
    model_setting: f.setting,
    started_at: f.startedAt.toISOString(),
    seconds: round(seconds, 3),
    concurrency: f.concurrency,
    retries: f.retries,
    counts: {
      inputs: progress.total,
      answered: progress.requested + progress.cached,
      from_cache: progress.cached,
      requested: progress.requested,
      unreadable,
      failed: progress.failed,
      not_asked: progress.total - progress.done,
      excluded_hallucinated: f.excluded,
    },
    tokens: {
      this_run: tokenSum(progress.tokens.prompt, progress.tokens.completion),
      from_cache: tokenSum(cachedPrompt, cachedCompletion),
    },
    requests_per_second: seconds > 0 ? round(progress.requested / seconds, 3) : 0,
    mean_request_seconds: progress.requested > 0 ? round(requestMs / progress.requested / 1000, 3) : 0,
    stopped_by: stoppedBy,
    failures,
    unreadable_replies: unreadables,
  };
}
export type RunSummary = ReturnType<typeof runSummary>;

/**
 * The summary of a run made in shards (`run-model --shard`, then `merge`): counts and tokens
 * summed, failures and unreadable replies in the run's order (scene by scene, in `order`), the
 * earliest start and the slowest shard's time (shards run side by side), the rates over the whole.
 */
export function mergeRunSummaries(parts: readonly RunSummary[], order: readonly string[]) {
  const first = parts[0]!;
  const place = new Map(order.map((s, i) => [s, i]));
  const inOrder = <T extends Record<string, unknown>>(xs: T[]) =>
    xs
      .map((x, i) => [x, i] as const)
      .sort((a, b) => (place.get(String(a[0].scene)) ?? 0) - (place.get(String(b[0].scene)) ?? 0) || a[1] - b[1])
      .map(([x]) => x);
  const sum = <K extends string>(pick: (s: RunSummary) => Record<K, number>): Record<K, number> => {
    const out = { ...pick(first) };
    for (const s of parts.slice(1)) for (const k of Object.keys(out) as K[]) out[k] += pick(s)[k];
    return out;
  };
  const seconds = Math.max(...parts.map((s) => s.seconds));
  const counts = sum((s) => s.counts);
  const requestSeconds = parts.reduce((n, s) => n + s.mean_request_seconds * s.counts.requested, 0);
  return {
    ...first,
    started_at: parts.map((s) => s.started_at).sort()[0]!,
    seconds,
    shards: parts.length,
    counts: { ...counts, excluded_hallucinated: first.counts.excluded_hallucinated },
    tokens: { this_run: sum((s) => s.tokens.this_run), from_cache: sum((s) => s.tokens.from_cache) },
    requests_per_second: seconds > 0 ? round(counts.requested / seconds, 3) : 0,
    mean_request_seconds: counts.requested > 0 ? round(requestSeconds / counts.requested, 3) : 0,
    stopped_by: null,
    failures: inOrder(parts.flatMap((s) => s.failures)),
    unreadable_replies: inOrder(parts.flatMap((s) => s.unreadable_replies)),
  };
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const n = (x: number) => x.toLocaleString('en-US');

/** `m:ss` (or `h:mm:ss`). */
function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600),
    m = Math.floor((s % 3600) / 60),
    r = s % 60;
  return h ? `${h}:${String(m).padStart(2, '0')}:${String(r).padStart(2, '0')}` : `${m}:${String(r).padStart(2, '0')}`;
}

/** One progress line for stderr: done/total, the cache's share, failures, the request rate, the time left. */
export function progressLine(p: RunProgress): string {
  const seconds = p.elapsedMs / 1000;
  const asked = p.done - p.cached;
  const rate = seconds > 0 ? asked / seconds : 0;
  const left = p.total - p.done;
  const eta = left === 0 ? 'done' : rate > 0 ? `ETA ${duration(left / rate)}` : 'ETA –';
  return (
    `run-model: ${n(p.done)}/${n(p.total)}${p.cached ? ` (${n(p.cached)} from the cache)` : ''}, ${n(p.failed)} failed, ` +
    `${rate.toFixed(2)} requests/s, ${eta}, tokens ${n(p.tokens.prompt)} + ${n(p.tokens.completion)}`
  );
}

/** The summary as the end of a run prints it. */
export function summaryText(s: RunSummary): string {
  const c = s.counts,
    t = s.tokens;
  return [
    `run-model: ${s.model} at ${s.endpoint_host}, frames ${s.frames}, prompt ${s.prompt_version ?? '–'}`,
    `  ${n(c.inputs)} inputs: ${n(c.answered)} answered (${n(c.from_cache)} from the cache), ${n(c.unreadable)} unreadable, ${n(c.failed)} failed` +
      `${c.not_asked ? `, ${n(c.not_asked)} not asked` : ''}; ${n(c.excluded_hallucinated)} hallucinated question${c.excluded_hallucinated === 1 ? '' : 's'} left out`,
    `  tokens this run: ${n(t.this_run.prompt)} prompt + ${n(t.this_run.completion)} completion = ${n(t.this_run.total)}` +
      `${t.from_cache.total ? ` (answers from the cache had cost ${n(t.from_cache.total)})` : ''}`,
    `  ${n(c.requested)} requests in ${duration(s.seconds)} (${s.requests_per_second} requests/s, ${s.mean_request_seconds} s each on average, concurrency ${s.concurrency})`,
  ].join('\n');
}
