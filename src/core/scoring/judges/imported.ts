import type { Judge, JudgeInfo, JudgeRequest, Verdict } from './types.ts';

/**
 * A verdict someone else produced (the authors' LLM run, a human review), keyed either by the
 * prediction it judges (scene + question + agent, optionally model) or by what was judged
 * (reason + notes). The file format is documented in src/formats/predictions/verdicts.ts.
 */
export interface ImportedVerdict {
  correct: boolean;
  explanation?: string;
  scene?: string;
  question?: string;
  agent?: string;
  model?: string;
  reason?: string;
  notes?: string[];
}

const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
const recordKey = (scene: string, question: string, agent: string, model: string) => JSON.stringify([scene, norm(question), agent.toUpperCase(), model]);
const contentKey = (reason: string, notes: readonly string[]) => JSON.stringify([reason.trim(), [...new Set(notes.map((n) => n.trim()))].sort()]);

/**
 * Judge from imported verdicts. A prediction's own verdict wins (model-specific first, then one
 * for any model); else a verdict on the same reason and notes; else an error verdict ("no
 * imported verdict"), which leaves the record out of RV and is listed, never counted as wrong.
 */
export function importedJudge(verdicts: readonly ImportedVerdict[], name = 'verdicts'): Judge {
  const byRecord = new Map<string, ImportedVerdict>();
  const byContent = new Map<string, ImportedVerdict>();
  for (const v of verdicts) {
    if (v.scene !== undefined && v.question !== undefined && v.agent !== undefined) byRecord.set(recordKey(v.scene, v.question, v.agent, v.model ?? ''), v);
    if (v.reason !== undefined) byContent.set(contentKey(v.reason, v.notes ?? []), v);
  }
  const info: JudgeInfo = { id: `imported:${name}`, kind: 'imported', label: `imported verdicts (${name})`, promptVersion: 'imported' };
  return {
    info,
    judge(req: JudgeRequest): Verdict {
      const r = req.record;
      const hit =
        (r && (byRecord.get(recordKey(r.scene, r.question, r.agent, r.model)) ?? byRecord.get(recordKey(r.scene, r.question, r.agent, '')))) ??
        byContent.get(contentKey(req.reason, req.notes));
      if (!hit) return { error: 'no imported verdict for this prediction' };
      return hit.explanation !== undefined ? { correct: hit.correct, explanation: hit.explanation } : { correct: hit.correct };
    },
  };
}
