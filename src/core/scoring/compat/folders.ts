import { comparePaths, summariseFolder } from './score.ts';
import type { CompatResult, CompatSettings, CompatSummary } from './types.ts';

/**
 * The model folders of a results root: top-level folders holding a scene folder with a result
 * file (`<model>/<SCENE>/x.json`). A root holding one model's scene folders has none.
 */
export function modelFolders(paths: readonly string[]): string[] {
  const models = new Set<string>();
  for (const p of paths) {
    const parts = p.split('/');
    if (parts.length >= 3) models.add(parts[0]!);
  }
  return [...models].sort(comparePaths);
}

/** The file of one model's summary: its name ends in `_summary.json`, which the released scorer never reads back. */
export const modelSummaryName = (model: string) => `scored_${model}_summary.json`;

/** What `score --compat reference` reports: the pooled summary, and one per model folder when the root holds two or more. */
export interface CompatSummaries {
  pooled: CompatSummary;
  perModel: [string, CompatSummary][];
}

/**
 * The summaries of a scored results root, as `score --compat reference` writes them: the run's
 * paths and judge name, each model's per-record file the pooled one.
 */
export function compatSummaries(result: CompatResult): CompatSummaries {
  const models = modelFolders(result.files.map((f) => f.path));
  const s = result.summary;
  const settings: CompatSettings = { resultRoot: s.result_root, gtRoot: s.gt_root, rvModel: s.rv_llm_model, perRecordOutput: s.per_record_output };
  return { pooled: s, perModel: models.length >= 2 ? models.map((m) => [m, summariseFolder(result, m, settings)]) : [] };
}

/** The columns of the released scorer's table, as the command line prints it and the studio shows it. */
export const REFERENCE_COLUMNS = ['results', 'records', 'ok', 'failed', 'format errors', 'F1', 'PV', 'RTA', 'RV', 'CapNav'] as const;

/** The name of the pooled row: every record of the root together (`scored_summary.json`). */
export const pooledRowName = (models: number) => (models ? `all ${models} models, pooled` : 'all records');

/** One row per model folder, then the pooled row: counts, then F1, PV, RTA, RV and CapNav as percentages with two decimals. */
export function referenceRows({ pooled, perModel }: CompatSummaries): string[][] {
  const pct = (x: number) => (100 * x).toFixed(2);
  const row = (name: string, s: CompatSummary) => {
    const c = s.capnav_components;
    return [
      name,
      String(s.n_records),
      String(s.n_ok),
      String(s.n_fail),
      String(s.format_errors),
      pct(c.f1),
      pct(c.pv),
      pct(c.rta),
      pct(c.rv),
      pct(s.capnav_score),
    ];
  };
  return [...perModel.map(([m, s]) => row(m, s)), row(pooledRowName(perModel.length), pooled)];
}
