import { append } from '../../arrays.ts';
import type { Problem } from '../../problems.ts';
import type { PaperReport, ScoredRecord } from './types.ts';

/** A report without its per-record lists (those go to the JSONL), with their sizes instead. */
export type PaperSummary = Omit<PaperReport, 'records' | 'unmatched' | 'excluded' | 'problems'> & {
  counts: { records: number; unmatched: number; excluded: number; problems: number };
};

/**
 * `scored_summary.json` of paper mode:
 *
 *     { "mode": "paper", "unjudged": N, "models": { "<model setting>": PaperSummary, … }, "problems": [...] }
 *
 * `problems` holds the prediction readers' problems and every report's (unmatched predictions,
 * duplicates, judge failures), each with file and location.
 */
export function paperSummary(
  reports: ReadonlyMap<string, PaperReport>,
  readProblems: readonly Problem[] = [],
): { mode: 'paper'; unjudged: number; models: Record<string, PaperSummary>; problems: Problem[] } {
  const problems = [...readProblems];
  // Built with fromEntries: a model may be named "__proto__", which an assignment would take as
  // the object's prototype (and JSON.stringify would then leave the model out).
  const models: Record<string, PaperSummary> = Object.fromEntries(
    [...reports].map(([model, r]) => {
      const { records, unmatched, excluded, problems: own, ...rest } = r;
      append(problems, own);
      return [model, { ...rest, counts: { records: records.length, unmatched: unmatched.length, excluded: excluded.length, problems: own.length } }];
    }),
  );
  // Records of every model the judge could not judge: when > 0 the composites are withheld.
  let unjudged = 0;
  for (const r of reports.values()) unjudged += r.unjudged.count;
  return { mode: 'paper', unjudged, models, problems };
}

/** `scored_per_record.jsonl` of paper mode: every record of every model — scored, excluded and unmatched — one per line. */
export function paperRecordsJsonl(reports: ReadonlyMap<string, PaperReport>): string {
  const lines: string[] = [];
  const add = (rs: readonly ScoredRecord[]) => {
    for (const r of rs) lines.push(JSON.stringify(r));
  };
  for (const r of reports.values()) {
    add(r.records);
    add(r.excluded);
    add(r.unmatched);
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}
