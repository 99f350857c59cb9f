import type { FomerReport } from './trails.ts';

/**
 * FoMER's reasoning scores as table rows, shared by `score-qa`'s text output and the Score view's
 * table, so the two show the same figures in the same order.
 */
export interface FomerCell {
  value: number | null;
  ci?: [number, number] | undefined;
  n: number;
}

export interface FomerSubsetRow {
  model: string;
  /** The subset, or the overall line ("macro over subsets" / "micro, all items"). */
  subset: string;
  overall: boolean;
  ra: FomerCell;
  fa: FomerCell;
  nRa: number;
  nFa: number;
}

export const overallLabel = (f: FomerReport) => (f.settings.averaging === 'macro' ? 'macro over subsets' : 'micro, all items');

const SUBSET_NAMES: Record<FomerReport['settings']['subsets'], string> = {
  source: "the item's source (written, generated, capnav)",
  scene: "the item's scene",
  capability: "the item's capability",
  task: "the item's task type",
};

export function fomerSubsetRows(f: FomerReport): FomerSubsetRow[] {
  return f.models.flatMap((m) => {
    const r = m.reasoning;
    const row = (subset: string, s: typeof r.overall, overall: boolean): FomerSubsetRow => ({
      model: m.model,
      subset,
      overall,
      nRa: s.nRa,
      nFa: s.nFa,
      ra: { value: s.ra, ci: s.ciRa, n: s.nRa },
      fa: { value: s.fa, ci: s.ciFa, n: s.nFa },
    });
    return [
      ...Object.entries(r.perSubset)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([s, v]) => row(s, v, false)),
      row(overallLabel(f), r.overall, true),
    ];
  });
}

/** One row per criterion, one cell per model (n: the items with a full rubric), then RA itself. */
export function fomerCriterionRows(f: FomerReport): { criterion: string; cells: FomerCell[] }[] {
  return [
    ...f.settings.criteria.map((c) => ({
      criterion: c,
      cells: f.models.map((m) => ({ value: m.reasoning.perCriterion[c] ?? null, n: m.reasoning.overall.nRa })),
    })),
    {
      criterion: `RA (${overallLabel(f)})`,
      cells: f.models.map((m) => ({ value: m.reasoning.overall.ra, ci: m.reasoning.overall.ciRa, n: m.reasoning.overall.nRa })),
    },
  ];
}

export function fomerSummary(f: FomerReport): string {
  const s = f.settings;
  return [
    `FoMER reasoning scores (percent). RA = mean of the ${s.criteria.length} rubric criteria (1–10, 10 best) of each answer's reasoning steps against the item's trail, judged by ${s.judge.label}.`,
    `FA = final-answer accuracy, never mixed into RA: ${s.fa}.`,
    `Subsets: ${SUBSET_NAMES[s.subsets]}; overall = ${s.averaging === 'macro' ? 'mean of the subset means (macro)' : 'mean of all items (micro)'}; n = items counted.` +
      (s.bootstrap.resamples > 0
        ? ` [lo, hi]: ${Math.round(s.bootstrap.level * 100)} % bootstrap intervals, ${s.bootstrap.resamples} resamples, seed ${s.bootstrap.seed}.`
        : ''),
  ].join('\n');
}
