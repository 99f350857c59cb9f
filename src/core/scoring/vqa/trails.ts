import { forEachAtMost } from '../../concurrency.ts';
import { NO_BOOTSTRAP, type BootstrapSettings } from '../bootstrap.ts';
import type { TrailJudge, TrailJudgeRequest, TrailVerdict } from '../judges/trail.ts';
import type { JudgeInfo } from '../judges/types.ts';
import { FOMER_CRITERIA, scoreReasoning, type ReasoningItem, type ReasoningReport } from './fomer.ts';
import { truthText, type QaAnswersReport, type QaItemScore, type QaPrediction, type QaTruth } from './qaAnswers.ts';

/**
 * FoMER's reasoning scores of a model's answers to the project's items (docs/scoring.md §3, the FoMER
 * paper §4): the model's reasoning steps are judged against the item's trail on the ten rubric
 * criteria; RA is their mean as a percentage, per subset, and overall the macro over subsets;
 * FA, the final answer's accuracy, is reported beside it and never mixed into RA.
 *
 * - Subsets: FoMER's are its source datasets. An item's subset is, by setting, its source
 *   (`written`, `generated`, `capnav`: the default), its scene, its capability or its task type.
 * - RA counts the items whose answer carries reasoning steps, whose item has a trail, and whose
 *   judgement gave every criterion 1–10. The others are listed with the reason (no answer, no
 *   steps, no trail, the judge's error), never scored 0.
 * - FA is each item's answer score as the QA-answers table has it, on FoMER's scale: MCQ and
 *   yes/no 0 or 10 (FoMER's MCQ/TF), numeric its Embodied4C score ÷ 10 (open), free text its
 *   judgeScore ÷ 10 or, without one, the trail judge's final score (open). An item without an
 *   answer scores 0, as in the table.
 * - Of several answers of a model to one item, the last counts, as in the table.
 */
export const TRAIL_SUBSETS = ['source', 'scene', 'capability', 'task'] as const;
export type TrailSubsets = (typeof TRAIL_SUBSETS)[number];

export interface TrailSettings {
  subsets?: TrailSubsets;
  averaging?: 'micro' | 'macro';
  bootstrap?: Partial<BootstrapSettings>;
}

export interface TrailItemScore {
  id: string;
  subset: string;
  /** RA of the item, percent; null when it has none (see `note`). */
  ra: number | null;
  /** FA of the item, percent; null when it has none. */
  fa: number | null;
  /** Where FA came from: the answer's own score, or the trail judge's final score. */
  faFrom: 'answer' | 'judge' | null;
  /** The judge's 1–10 scores, as given. */
  criteria?: Record<string, number>;
  explanation?: string;
  note?: string;
}

export interface FomerModelReport {
  model: string;
  reasoning: Omit<ReasoningReport, 'settings'>;
  counts: {
    items: number;
    /** Items answered with reasoning steps. */
    withSteps: number;
    /** Of those, judged with every criterion 1–10 (in RA). */
    judged: number;
    noAnswer: number;
    noSteps: number;
    noTrail: number;
    /** Judge errors, unreadable replies, out-of-range or missing criteria. */
    notJudged: number;
  };
  items: TrailItemScore[];
}

export interface FomerReport {
  settings: {
    subsets: TrailSubsets;
    averaging: 'micro' | 'macro';
    bootstrap: BootstrapSettings;
    criteria: string[];
    judge: JudgeInfo;
    fa: string;
  };
  models: FomerModelReport[];
}

export const FA_RULE =
  "the answer's score ÷ 10 (MCQ and yes/no 0 or 10, numeric and judged free text 0–10); free text without a judgeScore: the trail judge's final score; no answer: 0";

const NO_SUBSET = '(none)';

export function subsetOf(t: QaTruth, by: TrailSubsets): string {
  switch (by) {
    case 'source':
      return t.source ?? NO_SUBSET;
    case 'scene':
      return t.sceneId;
    case 'capability':
      return t.category.capability;
    case 'task':
      return t.category.taskType ?? NO_SUBSET;
  }
}

const key = (model: string, id: string) => `${model}\u0000${id}`;

/** Each model's answer that counts for each item: the last one. */
function lastAnswers(predictions: readonly QaPrediction[]): Map<string, QaPrediction> {
  const out = new Map<string, QaPrediction>();
  for (const p of predictions) out.set(key(p.model, p.id), p);
  return out;
}

/** What the judge is asked: every item a model answered with reasoning steps, when the item has a trail. */
export function trailRequests(truth: readonly QaTruth[], predictions: readonly QaPrediction[]): TrailJudgeRequest[] {
  const items = new Map<string, QaTruth>();
  for (const t of truth) if (!items.has(t.id)) items.set(t.id, t);
  const out: TrailJudgeRequest[] = [];
  for (const p of lastAnswers(predictions).values()) {
    const t = items.get(p.id);
    if (!t || !p.steps?.length || !t.trail?.length) continue;
    out.push({
      id: t.id,
      model: p.model,
      question: t.question,
      kind: t.answer.kind,
      truth: truthText(t.answer),
      trail: t.trail.map((s) => (s.title ? `${s.title}: ${s.text}` : s.text)),
      reply: p.reply,
      steps: p.steps,
    });
  }
  return out;
}

/** Ask the judge about every request, `concurrency` at a time; verdicts by model and item. */
export async function judgeTrails(
  requests: readonly TrailJudgeRequest[],
  judge: TrailJudge,
  options: { concurrency?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<Map<string, TrailVerdict>> {
  const out = new Map<string, TrailVerdict>();
  let done = 0;
  await forEachAtMost(requests, options.concurrency ?? 4, async (r) => {
    let v: TrailVerdict;
    try {
      v = await judge.judge(r);
    } catch (e) {
      v = { error: e instanceof Error ? e.message : String(e) };
    }
    out.set(key(r.model, r.id), v);
    options.onProgress?.(++done, requests.length);
  });
  return out;
}

/** Judge verdicts looked up synchronously (imported scores need no waiting). */
export function judgeTrailsNow(requests: readonly TrailJudgeRequest[], judge: TrailJudge): Map<string, TrailVerdict> {
  const out = new Map<string, TrailVerdict>();
  for (const r of requests) {
    const v = judge.judge(r);
    if (v instanceof Promise) throw new Error(`${judge.info.label} answers asynchronously: use judgeTrails`);
    out.set(key(r.model, r.id), v);
  }
  return out;
}

/** FA of a scored row on FoMER's scale, or why it has none. */
function finalOf(row: QaItemScore, verdict: TrailVerdict | undefined): { final: ReasoningItem['final']; from: TrailItemScore['faFrom'] } | null {
  if (row.kind === 'mcq' || row.kind === 'yesno')
    return { final: { kind: row.kind === 'mcq' ? 'mcq' : 'tf', score: row.score === 100 ? 10 : 0 }, from: 'answer' };
  if (row.score !== null) return { final: { kind: 'open', score: row.score / 10 }, from: 'answer' };
  if (verdict && !('error' in verdict) && verdict.final !== undefined) return { final: { kind: 'open', score: verdict.final }, from: 'judge' };
  return null;
}

/**
 * FoMER's RA and FA of every model of an answers report, from the verdicts `judgeTrails` got.
 * `truth` and `predictions` are the ones the report was scored from.
 */
export function scoreTrails(
  truth: readonly QaTruth[],
  predictions: readonly QaPrediction[],
  answers: QaAnswersReport,
  verdicts: ReadonlyMap<string, TrailVerdict>,
  judge: JudgeInfo,
  settings: TrailSettings = {},
): FomerReport {
  const subsets = settings.subsets ?? 'source';
  const averaging = settings.averaging ?? 'macro';
  const bootstrap = { ...NO_BOOTSTRAP, ...settings.bootstrap };
  const items = new Map<string, QaTruth>();
  for (const t of truth) if (!items.has(t.id)) items.set(t.id, t);
  const last = lastAnswers(predictions);
  const models = answers.models.map((m): FomerModelReport => {
    const counts = { items: m.items.length, withSteps: 0, judged: 0, noAnswer: 0, noSteps: 0, noTrail: 0, notJudged: 0 };
    const reasoning: ReasoningItem[] = [];
    const rows: TrailItemScore[] = [];
    for (const row of m.items) {
      const t = items.get(row.id)!;
      const p = last.get(key(m.model, row.id));
      const v = verdicts.get(key(m.model, row.id));
      const subset = subsetOf(t, subsets);
      const item: ReasoningItem = { id: row.id, subset };
      const out: TrailItemScore = { id: row.id, subset, ra: null, fa: null, faFrom: null };
      if (!p) {
        counts.noAnswer++;
        out.note = 'no answer';
      } else if (!p.steps?.length) {
        counts.noSteps++;
        out.note = 'no reasoning steps in the answer';
      } else {
        counts.withSteps++;
        if (!t.trail?.length) {
          counts.noTrail++;
          out.note = 'the item has no reasoning trail to judge against';
        } else if (!v) {
          counts.notJudged++;
          out.note = 'not judged';
        } else if ('error' in v) {
          counts.notJudged++;
          out.note = v.error;
        } else {
          item.criteria = v.criteria;
          out.criteria = { ...v.criteria };
          if (v.explanation !== undefined) out.explanation = v.explanation;
        }
      }
      const f = finalOf(row, v);
      if (f) {
        item.final = f.final;
        out.faFrom = f.from;
      }
      reasoning.push(item);
      rows.push(out);
    }
    const { settings: _s, ...report } = scoreReasoning(reasoning, { criteria: FOMER_CRITERIA, averaging, bootstrap });
    // The per-item figures and the reasons items were left out, from the same rules as the totals.
    const skipped = new Map(report.skipped.map((s) => [`${s.metric}\u0000${s.id}`, s.reason]));
    for (const [i, out] of rows.entries()) {
      const r = skipped.get(`ra\u0000${out.id}`);
      const it = reasoning[i]!;
      if (it.criteria && r === undefined) {
        out.ra = raOf(it.criteria);
        counts.judged++;
      } else if (it.criteria && r !== undefined) {
        counts.notJudged++;
        out.note = `judge scores: ${r}`;
      }
      if (it.final && !skipped.has(`fa\u0000${out.id}`)) out.fa = it.final.score * 10;
    }
    return { model: m.model, reasoning: report, counts, items: rows };
  });
  return {
    settings: { subsets, averaging, bootstrap, criteria: FOMER_CRITERIA.map((c) => c.name), judge, fa: FA_RULE },
    models,
  };
}

const raOf = (criteria: Readonly<Record<string, number>>) => (FOMER_CRITERIA.reduce((s, c) => s + criteria[c.name]!, 0) / FOMER_CRITERIA.length) * 10;
