import { isError, type CachedVerdict, type Judge, type JudgeInfo, type JudgeRequest, type Verdict, type VerdictCache } from './types.ts';

/**
 * The cache key of a judgement: (judge id, prompt version, reason, notes). The notes are a set,
 * so their order does not matter. The judge id names the endpoint and model, never the key, so
 * the key never reaches a cache file. Re-scoring with the same judge is then reproducible and
 * costs nothing.
 */
export function verdictKey(info: JudgeInfo, req: Pick<JudgeRequest, 'reason' | 'notes'>): string {
  return JSON.stringify([info.id, info.promptVersion, req.reason, [...new Set(req.notes)].sort()]);
}

/** Wrap a judge with a persistent cache: a hit never reaches the judge; errors are not stored. */
export function cachedJudge(inner: Judge, cache: VerdictCache): Judge {
  return {
    info: inner.info,
    async judge(req: JudgeRequest): Promise<Verdict> {
      const key = verdictKey(inner.info, req);
      const hit = await cache.get(key);
      if (hit) return { ...hit, cached: true };
      const verdict = await inner.judge(req);
      if (!isError(verdict)) {
        const stored: CachedVerdict = { correct: verdict.correct };
        if (verdict.explanation !== undefined) stored.explanation = verdict.explanation;
        await cache.set(key, stored);
      }
      return verdict;
    },
  };
}
