import type { Answer } from '../../vqa/item.ts';
import { NO_BOOTSTRAP, type BootstrapSettings } from '../bootstrap.ts';
import { CAPABILITIES, scoreEmbodied4C, scoreItem, type Capability, type Embodied4CReport, type ItemCategory, type VqaItem } from './embodied4c.ts';
import { parseOption } from './mcq.ts';
import { extractNumber, numericScore } from './numeric.ts';

/**
 * Scoring a model's answers to the project's question-answer items (Embodied4C's VQA metrics,
 * docs/scoring.md §3). The ground truth is anything shaped like an item — a QaItem of the project or a
 * record of the QA bundle — and each prediction is one model's reply to one item, by id.
 *
 * - mcq: the option parsed from the reply after MetaVQA (`parseOption`, with the options' texts as
 *   keywords), 100 when it is the correct key, 0 when wrong or unparseable.
 * - yes/no: `parseYesNo`; 100 or 0; unparseable replies score 0 and count as parse failures.
 * - numeric: Embodied4C eq. 2 with the ITEM's tolerance as τ (the annotator set it per question),
 *   unless the settings give one τ for all; τ = 0 accepts the exact value only.
 * - free text: the judge score carried by the prediction (0–100); without one the item is "not
 *   judged" and left out of every mean (and counted).
 *
 * All items form ONE sub-benchmark (`qa`): the scenes of a project are not Embodied4C's
 * embodiments (driving, aerial, manipulation) and hold a handful of items each, so a mean over
 * per-scene scores would weigh a scene of three items like one of three hundred.
 *
 * Items whose capability is not one of Embodied4C's four (nor `general`, reported apart as GEN)
 * come from a custom taxonomy: they are scored and listed, and reported as outside the Embodied4C
 * capabilities instead of entering the capability means. Items without a prediction score 0 and
 * are listed; predictions for no item are listed, never dropped; of several predictions for the
 * same item the last one counts, and the item is listed.
 */

/** The ground truth of one item: the fields a QaItem and a bundle record both have. */
export interface QaTruth {
  id: string;
  sceneId: string;
  question: string;
  answer: Answer;
  category: { capability: string; taskType?: string };
  /** Where the item came from (`written`, `generated`, `capnav`): FoMER's source subsets. */
  source?: string;
  /** The item's step-by-step reasoning trail, the ground truth a model's steps are judged against (FoMER). */
  trail?: readonly { title: string; text: string }[];
}

/** One model's reply to one item. */
export interface QaPrediction {
  id: string;
  model: string;
  reply: string;
  /** A judge's 0–100 score of a free-text reply; absent or null when not judged. */
  judgeScore?: number | null;
  /** The model's step-by-step reasoning, when it gave one (judged for FoMER's RA). */
  steps?: string[];
}

/** Answer files that named the same model: each is scored as its own model, `<model> (<file>)`. */
export interface SameModel {
  model: string;
  files: { file: string; scoredAs: string; answers: number }[];
  /** Items answered in more than one of the files. */
  sharedItems: number;
}

export interface QaScoreSettings {
  /** One τ for every numeric item instead of each item's own tolerance. */
  tau?: number | null;
  /** macro: VQA = mean of the four capability means; micro: mean of their items pooled. */
  averaging?: 'micro' | 'macro';
  bootstrap?: Partial<BootstrapSettings>;
}

/** The sub-benchmark every item belongs to. */
export const QA_BENCHMARK = 'qa';

export type ReportedAs = 'capability' | 'general' | 'outside';

export interface QaItemScore {
  id: string;
  sceneId: string;
  question: string;
  kind: Answer['kind'];
  capability: string;
  /** Where the score counts: a capability mean, GEN, or apart (outside the Embodied4C capabilities). */
  reportedAs: ReportedAs;
  /** The correct answer, as text. */
  truth: string;
  /** The model's reply; null when it gave none for this item. */
  reply: string | null;
  /** What was read from the reply: the option key, yes/no, or the number; null when nothing could be. */
  parsed?: string | number | null;
  /** The τ a numeric item was scored with. */
  tau?: number;
  /** 0–100; null for a free-text reply that was not judged. */
  score: number | null;
  note?: string;
}

/** Accuracy of one answer kind; percentages of all items of the kind (a missing prediction counts as wrong, not as a parse failure). */
export interface KindAccuracy {
  n: number;
  correct: number;
  unparseable: number;
  missing: number;
  accuracy: number | null;
  failRate: number | null;
}

export interface QaModelReport {
  model: string;
  /** Embodied4C's figures over the items of its taxonomy, under `benchmarks.qa` (per-item scores are in `items`). */
  embodied4c: Omit<Embodied4CReport, 'settings' | 'items'>;
  mcq: KindAccuracy;
  yesno: KindAccuracy;
  numeric: { n: number; noNumber: number; missing: number; mean: number | null };
  freetext: { n: number; judged: number; notJudged: number; missing: number; mean: number | null };
  /** Items of capabilities outside Embodied4C's (custom taxonomies): scored, not in the capability means. */
  outside: { n: number; mean: number | null; capabilities: string[] };
  /** Items this model gave no answer for (scored 0). */
  missing: string[];
  /** Predictions whose id is no item (not scored). */
  unmatched: { id: string; reply: string }[];
  /** Items answered more than once: the last answer counts. */
  duplicates: { id: string; count: number }[];
  items: QaItemScore[];
}

export interface QaAnswersReport {
  settings: {
    /** `per item`: each numeric item's own tolerance. */
    tau: number | 'per item';
    averaging: 'micro' | 'macro';
    bootstrap: BootstrapSettings;
    benchmark: string;
    missing: 'scored 0';
    duplicates: 'the last one counts';
  };
  /** Ground-truth items scored against (a repeated id counts once: its first item). */
  items: number;
  models: QaModelReport[];
}

export type YesNo = 'yes' | 'no';

const LEADING = /^[^\p{L}\p{N}]*(yes|no)(?![\p{L}\p{N}])/iu;
const STANDALONE = /(?<![\p{L}\p{N}])(yes|no)(?![\p{L}\p{N}])/giu;

/**
 * The yes/no a reply gives: the word it starts with ("No, it is not possible"), else the LAST
 * standalone yes or no ("I think yes... but no" is no: a model that changes its mind ends on its
 * answer). Null when there is neither.
 */
export function parseYesNo(reply: string): YesNo | null {
  const lead = LEADING.exec(reply);
  if (lead) return lead[1]!.toLowerCase() as YesNo;
  let last: YesNo | null = null;
  for (const m of reply.matchAll(STANDALONE)) last = m[1]!.toLowerCase() as YesNo;
  return last;
}

export function truthText(answer: Answer): string {
  switch (answer.kind) {
    case 'mcq': {
      const text = answer.options.find((o) => o.key === answer.correct)?.text;
      return text ? `${answer.correct} (${text})` : answer.correct;
    }
    case 'yesno':
      return answer.correct ? 'yes' : 'no';
    case 'numeric':
      return `${answer.value}${answer.unit ? ` ${answer.unit}` : ''}`;
    case 'freetext':
      return answer.reference;
  }
}

const reportedAs = (capability: string): ReportedAs =>
  (CAPABILITIES as readonly string[]).includes(capability) ? 'capability' : capability === 'general' ? 'general' : 'outside';

/**
 * Score one item against one reply (or none), with what goes into the Embodied4C aggregation.
 * Built field by field, without object spreads: this runs 10,000 times on the page's main thread.
 */
function scoreOne(t: QaTruth, p: QaPrediction | undefined, tauOverride: number | null): { row: QaItemScore; vqa: VqaItem } {
  const a = t.answer;
  const capability = t.category.capability;
  const row: QaItemScore = {
    id: t.id,
    sceneId: t.sceneId,
    question: t.question,
    kind: a.kind,
    capability,
    reportedAs: reportedAs(capability),
    truth: truthText(a),
    reply: p ? p.reply : null,
    score: 0,
  };
  const scored = (score: number): VqaItem => ({ id: t.id, benchmark: QA_BENCHMARK, capability: capability as ItemCategory, kind: 'score', score });
  if (a.kind === 'numeric') row.tau = tauOverride ?? a.tolerance;
  if (!p) {
    row.note = 'no prediction (scored 0)';
    return { row, vqa: scored(0) };
  }
  const reply = p.reply;
  switch (a.kind) {
    case 'mcq': {
      // The VqaItem scoreItem scores, parsed here once the way scoreItem parses it, so the option read can be shown.
      const item = mcqVqaItem(t.id, capability, a, reply);
      const parsed = parseOption(reply, item.options, item.choices);
      row.parsed = parsed;
      row.score = parsed !== null && parsed === item.answer.trim().toUpperCase() ? 100 : 0;
      if (parsed === null) row.note = 'unparseable option';
      return { row, vqa: scored(row.score) };
    }
    case 'yesno': {
      const parsed = parseYesNo(reply);
      row.parsed = parsed;
      row.score = parsed !== null && (parsed === 'yes') === a.correct ? 100 : 0;
      if (parsed === null) row.note = 'no yes or no in the reply';
      return { row, vqa: scored(row.score) };
    }
    case 'numeric': {
      const parsed = extractNumber(reply);
      row.parsed = parsed;
      row.score = numericScore(parsed, a.value, row.tau!);
      if (parsed === null) row.note = 'no number in the reply';
      return { row, vqa: scored(row.score) };
    }
    case 'freetext': {
      const vqa: VqaItem = { id: t.id, benchmark: QA_BENCHMARK, capability: capability as ItemCategory, kind: 'free', judgeScore: p.judgeScore ?? null };
      const { score, note } = scoreItem(vqa, 0);
      row.score = score;
      if (note) row.note = note;
      return { row, vqa };
    }
  }
}

type McqVqaItem = Extract<VqaItem, { kind: 'mcq' }> & { options: readonly string[]; choices: Readonly<Record<string, string>> };

function optionTexts(options: readonly { key: string; text: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of options) out[o.key] = o.text;
  return out;
}

/** The VqaItem of an MCQ item and a reply, as `scoreItem` takes it (exported so a test holds the two scorings together). */
export function mcqVqaItem(id: string, capability: string, a: Extract<Answer, { kind: 'mcq' }>, reply: string): McqVqaItem {
  return {
    id,
    benchmark: QA_BENCHMARK,
    capability: capability as ItemCategory,
    kind: 'mcq',
    reply,
    answer: a.correct,
    options: a.options.map((o) => o.key),
    choices: optionTexts(a.options),
  };
}

const mean = (xs: readonly number[]): number | null => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
const pct = (k: number, n: number) => (n ? (100 * k) / n : null);

function accuracy(rows: readonly QaItemScore[]): KindAccuracy {
  const n = rows.length;
  const correct = rows.filter((r) => r.score === 100).length;
  const missing = rows.filter((r) => r.reply === null).length;
  const unparseable = rows.filter((r) => r.reply !== null && r.parsed === null).length;
  return { n, correct, unparseable, missing, accuracy: pct(correct, n), failRate: pct(unparseable, n) };
}

/** Every model's answers scored against the items, models in the order they first appear. */
export function scoreQaAnswers(truth: readonly QaTruth[], predictions: readonly QaPrediction[], settings: QaScoreSettings = {}): QaAnswersReport {
  const tauOverride = settings.tau ?? null;
  const averaging = settings.averaging ?? 'macro';
  const bootstrap = { ...NO_BOOTSTRAP, ...settings.bootstrap };
  const items = new Map<string, QaTruth>();
  for (const t of truth) if (!items.has(t.id)) items.set(t.id, t);

  const byModel = new Map<string, QaPrediction[]>();
  for (const p of predictions) {
    const list = byModel.get(p.model);
    if (list) list.push(p);
    else byModel.set(p.model, [p]);
  }
  const models = [...byModel].map(([model, preds]) => scoreModel(model, preds, items, tauOverride, averaging, bootstrap));
  return {
    settings: { tau: tauOverride ?? 'per item', averaging, bootstrap, benchmark: QA_BENCHMARK, missing: 'scored 0', duplicates: 'the last one counts' },
    items: items.size,
    models,
  };
}

function scoreModel(
  model: string,
  preds: readonly QaPrediction[],
  items: ReadonlyMap<string, QaTruth>,
  tauOverride: number | null,
  averaging: 'micro' | 'macro',
  bootstrap: BootstrapSettings,
): QaModelReport {
  // The answer that counts for each item (the last), and how many it got.
  const answer = new Map<string, { p: QaPrediction; n: number }>();
  const unmatched: QaModelReport['unmatched'] = [];
  for (const p of preds) {
    const seen = answer.get(p.id);
    if (seen) {
      seen.p = p;
      seen.n++;
    } else if (items.has(p.id)) answer.set(p.id, { p, n: 1 });
    else unmatched.push({ id: p.id, reply: p.reply });
  }
  const rows: QaItemScore[] = [];
  const inTaxonomy: VqaItem[] = [];
  for (const t of items.values()) {
    const { row, vqa } = scoreOne(t, answer.get(t.id)?.p, tauOverride);
    rows.push(row);
    if (row.reportedAs !== 'outside') inTaxonomy.push(vqa);
  }
  const { settings: _settings, items: _items, ...embodied4c } = scoreEmbodied4C(inTaxonomy, [], { averaging, bootstrap });
  const ofKind = (k: Answer['kind']) => rows.filter((r) => r.kind === k);
  const scores = (rs: readonly QaItemScore[]) => rs.flatMap((r) => (r.score === null ? [] : [r.score]));
  const numeric = ofKind('numeric'),
    free = ofKind('freetext'),
    outside = rows.filter((r) => r.reportedAs === 'outside');
  return {
    model,
    embodied4c,
    mcq: accuracy(ofKind('mcq')),
    yesno: accuracy(ofKind('yesno')),
    numeric: {
      n: numeric.length,
      noNumber: numeric.filter((r) => r.reply !== null && r.parsed === null).length,
      missing: numeric.filter((r) => r.reply === null).length,
      mean: mean(scores(numeric)),
    },
    freetext: {
      n: free.length,
      judged: free.filter((r) => r.reply !== null && r.score !== null).length,
      notJudged: free.filter((r) => r.reply !== null && r.score === null).length,
      missing: free.filter((r) => r.reply === null).length,
      mean: mean(scores(free)),
    },
    outside: { n: outside.length, mean: mean(scores(outside)), capabilities: [...new Set(outside.map((r) => r.capability))] },
    missing: rows.filter((r) => r.reply === null).map((r) => r.id),
    unmatched,
    duplicates: [...answer].filter(([, a]) => a.n > 1).map(([id, a]) => ({ id, count: a.n })),
    items: rows,
  };
}

const CAPABILITY_SHORT: Record<Capability, string> = { semantic: 'SEM', spatial: 'SPA', temporal: 'TEM', physical: 'PHY' };

/**
 * How VQA was averaged, in words that fit the items scored: under macro averaging the capabilities
 * without items are named rather than counted among "the four".
 */
export function vqaDefinition(r: Pick<QaAnswersReport, 'settings' | 'models'>): string {
  if (r.settings.averaging !== 'macro') return 'mean of the capability items pooled (micro)';
  const withItems = CAPABILITIES.filter((c) => r.models.some((m) => (m.embodied4c.benchmarks[QA_BENCHMARK]?.capabilities[c].n ?? 0) > 0));
  if (withItems.length === CAPABILITIES.length) return 'mean of the four capability means (macro)';
  const none = CAPABILITIES.filter((c) => !withItems.includes(c)).map((c) => CAPABILITY_SHORT[c]);
  return `mean of the ${withItems.length} capability mean${withItems.length === 1 ? '' : 's'} that have items (macro; ${none.join(', ')} ha${none.length === 1 ? 's' : 've'} none)`;
}
