import { chatJudge, type HttpJudgeOptions } from './http.ts';
import { TRAIL_PROMPT_VERSION, TRAIL_SYSTEM_PROMPT, parseTrailScores, trailUserPrompt, type TrailJudgeRequest, type TrailScores } from './trailPrompt.ts';
import type { JudgeInfo } from './types.ts';

export type { TrailJudgeRequest, TrailScores };

/**
 * FoMER's reasoning judge: a model's step-by-step reasoning for one item, scored against the
 * item's ground-truth trail on the ten rubric criteria (1–10 each, 10 best), and, for an open
 * (free-text) answer, its final answer 0–10. Scores come from a file someone produced (the
 * authors' run, a human panel) or from an OpenAI-compatible endpoint; either way the report
 * names the judge.
 */
export type TrailVerdict = (TrailScores & { cached?: boolean }) | { error: string };

export interface TrailJudge {
  readonly info: JudgeInfo;
  judge(req: TrailJudgeRequest): TrailVerdict | Promise<TrailVerdict>;
}

export interface TrailCache {
  get(key: string): TrailScores | undefined | Promise<TrailScores | undefined>;
  set(key: string, scores: TrailScores): void | Promise<void>;
}

/** Scores someone else produced, for one item and one model (or, without `model`, for every model). */
export interface ImportedTrailScores extends TrailScores {
  id: string;
  model?: string;
}

/**
 * Judge from imported scores: the model's own entry for the item wins, else one for any model;
 * without either the verdict is an error ("no imported scores"), which leaves the item out of RA
 * and is listed, never scored as 0.
 */
export function importedTrailJudge(entries: readonly ImportedTrailScores[], name = 'trail scores'): TrailJudge {
  const key = (id: string, model: string) => JSON.stringify([id, model]);
  const byKey = new Map<string, ImportedTrailScores>();
  for (const e of entries) byKey.set(key(e.id, e.model ?? ''), e);
  return {
    info: { id: `imported:${name}`, kind: 'imported', label: `imported reasoning scores (${name})`, promptVersion: 'imported' },
    judge(req) {
      const hit = byKey.get(key(req.id, req.model)) ?? byKey.get(key(req.id, ''));
      if (!hit) return { error: `no imported scores for ${req.id} (model ${req.model})` };
      const out: TrailScores = { criteria: { ...hit.criteria } };
      if (hit.final !== undefined) out.final = hit.final;
      if (hit.explanation !== undefined) out.explanation = hit.explanation;
      return out;
    },
  };
}

/** FoMER's rubric from an OpenAI-compatible chat-completions endpoint (retries, time limit and redaction as the RV judge's). */
export function httpTrailJudge(opts: HttpJudgeOptions): TrailJudge {
  return chatJudge<TrailJudgeRequest, TrailScores>(opts, {
    promptVersion: TRAIL_PROMPT_VERSION,
    system: TRAIL_SYSTEM_PROMPT,
    user: trailUserPrompt,
    read: parseTrailScores,
    release: (v, clean) => {
      const out: TrailScores = { criteria: { ...v.criteria } };
      if (v.final !== undefined) out.final = v.final;
      if (v.explanation !== undefined) out.explanation = clean(v.explanation);
      return out;
    },
  });
}

/**
 * The cache key of a judgement: what was judged (question, truth, trail, reply, steps) under a
 * judge and prompt version, not which item or model asked: the same reasoning for the same item
 * is judged once, and re-scoring is free and reproducible. Never holds a credential.
 */
export function trailVerdictKey(info: JudgeInfo, req: TrailJudgeRequest): string {
  return JSON.stringify([info.id, info.promptVersion, req.question, req.kind, req.truth, req.trail, req.reply, req.steps]);
}

/** Wrap a judge with a persistent cache: a hit never reaches the judge; errors are not stored. */
export function cachedTrailJudge(inner: TrailJudge, cache: TrailCache): TrailJudge {
  return {
    info: inner.info,
    async judge(req) {
      const key = trailVerdictKey(inner.info, req);
      const hit = await cache.get(key);
      if (hit) return { ...hit, cached: true };
      const v = await inner.judge(req);
      if (!('error' in v)) {
        const { cached: _c, ...scores } = v;
        await cache.set(key, scores);
      }
      return v;
    },
  };
}
