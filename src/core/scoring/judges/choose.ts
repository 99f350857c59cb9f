import type { Problem } from '../../problems.ts';
import { cachedJudge } from './cache.ts';
import { httpJudge, type AbortSignalLike, type FetchLike } from './http.ts';
import { importedJudge, type ImportedVerdict } from './imported.ts';
import { ruleJudge } from './rule.ts';
import type { Judge, VerdictCache } from './types.ts';

/**
 * The RV judge a run asks for, as settings: plain data, so it crosses into the scoring worker
 * and is the same whether it came from `--judge`/`--verdicts` or the Score view.
 */
export type JudgeChoice =
  | { kind: 'rule' }
  | { kind: 'none' }
  /** Verdicts someone else produced: the file as the user gave it (read by `readVerdicts`). */
  | { kind: 'imported'; file: { path: string; text: string } }
  /** An OpenAI-compatible endpoint. Its key and transport are IO and come from the edge (`HttpJudgeIo`). */
  | { kind: 'http'; baseUrl: string; model: string };

/**
 * What the HTTP judge needs from the place it runs (Node's fetch with a time limit on the
 * command line, the page's fetch in the browser). Kept out of `JudgeChoice` so the key never
 * sits in settings, requests or reports.
 */
export interface HttpJudgeIo {
  fetch: FetchLike;
  sleep: (ms: number) => Promise<void>;
  apiKey?: string;
  /** First retry delay (default 1000 ms). */
  baseDelayMs?: number;
  /** Time limit per request (default 60 s). */
  timeoutMs?: number;
  /** Cancels the run's judging: requests in flight are aborted, the rest are not sent ("judge cancelled"). */
  cancel?: AbortSignalLike;
  /** Where verdicts persist between runs (a JSON file, IndexedDB). */
  cache?: VerdictCache;
}

/** An imported verdict file, read (src/formats/predictions/verdicts.ts: core reads no file formats). */
export interface VerdictFileRead {
  name: string;
  verdicts: ImportedVerdict[];
  problems: Problem[];
}

/**
 * The judge for a choice — the one place that decides what each choice means. An HTTP choice
 * needs `http`; where there is none (the scoring worker) asking for it is a programming error.
 * `problems` are the verdict file's, reported with the predictions'.
 */
export function chooseJudge(
  choice: JudgeChoice,
  io: { readVerdicts: (file: { path: string; text: string }) => VerdictFileRead; http?: HttpJudgeIo },
): { judge: Judge | null; problems: Problem[] } {
  switch (choice.kind) {
    case 'rule':
      return { judge: ruleJudge(), problems: [] };
    case 'none':
      return { judge: null, problems: [] };
    case 'imported': {
      const read = io.readVerdicts(choice.file);
      return { judge: importedJudge(read.verdicts, read.name), problems: read.problems };
    }
    case 'http': {
      if (!io.http) throw new Error("the HTTP judge cannot run here: it needs the page's or the command line's fetch");
      const { cache, ...transport } = io.http;
      const judge = httpJudge({ ...transport, baseUrl: choice.baseUrl, model: choice.model });
      return { judge: cache ? cachedJudge(judge, cache) : judge, problems: [] };
    }
  }
}
