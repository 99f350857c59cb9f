import type { MetricSet, PaperReport } from './types.ts';

/**
 * The CapNav paper's Table 2 layout: one row per model — Feas-F1, PV, RTA, RV, CapNav over all
 * records (the headline set), then the CapNav score per agent in the paper's agent order (any
 * other agent after them). A value is a number (percent), null when undefined, or `withheld`
 * when the judge failed on some records (with its range, every unjudged reason wrong … right).
 */
export type Table2Cell = number | null | { withheld: [number, number] | null };

export interface Table2 {
  /** Column names: Model, Feas-F1, PV, RTA, RV, CapNav, then one per agent. */
  header: string[];
  rows: { model: string; cells: Table2Cell[] }[];
}

type Scored = { headline: MetricSet; perAgent: Record<string, MetricSet> };

const cell = (m: MetricSet | undefined, k: 'f1' | 'pv' | 'rta' | 'rv' | 'capnav'): Table2Cell => {
  if (!m) return null;
  if (m[k] === null && (k === 'rv' || k === 'capnav') && m.incomplete) return { withheld: m.incomplete[k] };
  return m[k];
};

/** Table 2 of the scored models, in the order given, with per-agent columns for `agents` (in order). */
export function table2(models: readonly [string, Scored][], agents: readonly string[]): Table2 {
  const present = agents.filter((a) => models.some(([, r]) => r.perAgent[a]));
  return {
    header: ['Model', 'Feas-F1', 'PV', 'RTA', 'RV', 'CapNav', ...present],
    rows: models.map(([model, r]) => ({
      model,
      cells: [
        cell(r.headline, 'f1'),
        cell(r.headline, 'pv'),
        cell(r.headline, 'rta'),
        cell(r.headline, 'rv'),
        cell(r.headline, 'capnav'),
        ...present.map((a) => cell(r.perAgent[a], 'capnav')),
      ],
    })),
  };
}

/** What a figure or table of a run is captioned with: the project, the models, the mode, the averaging, the judge and the bootstrap seed. */
export function runCaption(
  project: string,
  models: readonly string[],
  st: Pick<PaperReport['settings'], 'averaging' | 'judge' | 'bootstrap'> | undefined,
): string {
  return `${project}; models ${models.join(', ')}; paper mode, ${st?.averaging ?? 'micro'}, judge ${st?.judge.label ?? 'none'}${st && st.bootstrap.resamples ? `, bootstrap seed ${st.bootstrap.seed}` : ''}`;
}

/** Table 2's title line (CSV first row, LaTeX comment), the same from the command line and the studio. */
export const table2Title = (...args: Parameters<typeof runCaption>): string => `CapNav Table 2: ${runCaption(...args)}`;
