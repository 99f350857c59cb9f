import type { ReasonCategory } from '../../rules.ts';

/**
 * The RV judge: does a model's reason for answering "no" match the ground-truth failure notes of
 * the not-traversable edges on its route? (CapNav §3.4 (4), appendix C.) Judges are pluggable;
 * every report names the judge that produced its RV so a rule-judged RV is never mistaken for
 * the paper's LLM-judged one.
 */
export type JudgeKind = 'rule' | 'http' | 'imported' | 'none';

/** What a report says about its judge. Serialisable; never holds a secret. */
export interface JudgeInfo {
  /** Stable id, part of every cache key: `rule`, `http:<model>@<endpoint>`, `imported:<name>`, `none`. */
  id: string;
  kind: JudgeKind;
  /** Human wording for reports, e.g. "offline rule judge (obstacle-category overlap), not an LLM". */
  label: string;
  /** Version of the prompt or rule set; a new version never reuses old cached verdicts. */
  promptVersion: string;
}

export interface JudgeRequest {
  /** The model's reason, as written. */
  reason: string;
  /** Ground-truth failure notes of the not-traversable hops of the route, de-duplicated, sorted. */
  notes: string[];
  /** The agent the route was judged for. */
  agent: string;
  /**
   * Ground-truth obstacle categories of those hops where the labels carry one (Traversa labels
   * record a reason category; release labels only have the note). Used by the rule judge only.
   */
  categories?: ReasonCategory[];
  /** Which prediction asked; lets imported verdicts be keyed by record. Not part of cache keys. */
  record?: { model: string; scene: string; question: string; agent: string };
}

export type Verdict =
  | { correct: boolean; explanation?: string; cached?: boolean }
  /** The judge could not decide (endpoint down after retries, unreadable reply, no imported verdict). */
  | { error: string };

export interface Judge {
  readonly info: JudgeInfo;
  judge(request: JudgeRequest): Verdict | Promise<Verdict>;
}

/** A stored verdict (the cache never stores errors, so a later run retries them). */
export interface CachedVerdict {
  correct: boolean;
  explanation?: string;
}

/**
 * Where verdicts persist between runs: a JSON file from the command line, IndexedDB in the
 * browser. Keys come from `verdictKey` and never contain credentials.
 */
export interface VerdictCache {
  get(key: string): CachedVerdict | undefined | Promise<CachedVerdict | undefined>;
  set(key: string, verdict: CachedVerdict): void | Promise<void>;
}

export const NO_JUDGE: JudgeInfo = { id: 'none', kind: 'none', label: 'no judge: RV not computed', promptVersion: '' };

export const isError = (v: Verdict): v is { error: string } => 'error' in v;
