import type { RecordColumns } from './lite.ts';
import type { MetricName, MetricSet } from './types.ts';

/** Below this many records a per-agent component is listed with the records it rests on. */
export const THIN_N = 5;

export type Component = 'f1' | 'pv' | 'rta' | 'rv';
const COMPONENTS: Component[] = ['f1', 'pv', 'rta', 'rv'];

export interface ThinRecord {
  i: number;
  id: string;
  scene: string;
  questionIndex: number | null;
}
/** A per-agent component that rests on `n` (1…THIN_N) records, and those records. */
export interface ThinNote {
  agent: string;
  metric: Component;
  n: number;
  records: ThinRecord[];
}

/** How many records each component rests on (F1 and the composite: all; PV: parseable; RTA: "yes" with a valid path; RV: "no"). */
export function nOf(m: MetricSet, k: MetricName): number {
  return k === 'pv' ? m.n.parseable : k === 'rta' ? m.n.rta : k === 'rv' ? m.n.rv : m.n.records;
}

/**
 * The per-agent figures a reader should not take at face value: components whose n is between 1
 * and THIN_N, each with the scored records it is computed from (found in the light rows: F1 every
 * scored record, PV the parseable ones, RTA and RV those with a value). The oracle's RV for HUMAN
 * on the shared release rests on one record, whose start node has no edges.
 */
export function thinComponents(rows: RecordColumns, perAgent: Readonly<Record<string, MetricSet>>): ThinNote[] {
  const wanted: ThinNote[] = [];
  for (const [agent, m] of Object.entries(perAgent)) {
    for (const k of COMPONENTS) {
      const n = nOf(m, k);
      if (n > 0 && n <= THIN_N) wanted.push({ agent, metric: k, n, records: [] });
    }
  }
  if (!wanted.length) return [];
  const byAgent = new Map<number, ThinNote[]>();
  for (const note of wanted) {
    const code = rows.agents.indexOf(note.agent);
    if (code < 0) continue;
    const list = byAgent.get(code);
    if (list) list.push(note);
    else byAgent.set(code, [note]);
  }
  for (let i = 0; i < rows.length; i++) {
    const notes = byAgent.get(rows.agent[i]!);
    if (!notes || rows.status[i] !== 0) continue; // status 0: scored
    for (const note of notes) {
      const counts =
        note.metric === 'f1'
          ? true
          : note.metric === 'pv'
            ? rows.answer[i] !== 0
            : note.metric === 'rta'
              ? !Number.isNaN(rows.rta[i]!)
              : !Number.isNaN(rows.rv[i]!);
      if (counts && note.records.length < note.n) {
        const q = rows.questionIndex[i]!;
        note.records.push({ i, id: rows.ids[i]!, scene: rows.scenes[rows.scene[i]!]!, questionIndex: q < 0 ? null : q });
      }
    }
  }
  return wanted;
}
