import type { Problem } from '../../problems.ts';
import { FAILURE_MODES, type FailureMode, type Outcome, type PaperReport, type RecordStatus, type ScoredRecord } from './types.ts';

/**
 * What the page needs of a scored record to list and filter it. The full record (hops, errors,
 * judge) stays where it was scored and is fetched when one is opened.
 */
export interface RecordRow {
  /** Position in the model's record list (scored, then excluded, then unmatched). */
  i: number;
  id: string;
  scene: string;
  questionIndex: number | null;
  agent: string;
  answer: ScoredRecord['answer'];
  gtFeasible: boolean | null;
  outcome: Outcome | null;
  status: RecordStatus;
  pathValid: boolean | null;
  rta: number | null;
  rv: number | null;
  failureModes: FailureMode[];
  /** The model's reason and path, as written (for search and display). */
  text: string;
}

const OUTCOMES: Outcome[] = ['TP', 'FP', 'TN', 'FN'];
const STATUSES: RecordStatus[] = ['scored', 'unmatched', 'excluded-hallucinated', 'excluded-unresolved'];
const ANSWERS: ScoredRecord['answer'][] = [null, 'yes', 'no'];

/**
 * A model's rows as columns: typed arrays and one text blob. Crossing from the worker to the
 * page, 100,000 rows as objects cost over a second to clone; as columns, a few milliseconds
 * (the arrays are transferred, the strings copied flat). Rows are rebuilt only when shown.
 */
export interface RecordColumns {
  length: number;
  ids: string[];
  scenes: string[];
  agents: string[];
  scene: Uint16Array;
  agent: Uint8Array;
  questionIndex: Int32Array;
  /** answer, gtFeasible, outcome, status, pathValid packed as small codes (see codes()). */
  answer: Int8Array;
  gtFeasible: Int8Array;
  outcome: Int8Array;
  status: Int8Array;
  pathValid: Int8Array;
  rta: Float32Array;
  rv: Float32Array;
  failureModes: Uint8Array;
  /** Reason and path of every record, joined; record i is text.slice(textAt[i], textAt[i + 1]). */
  text: string;
  textAt: Uint32Array;
}

const tri = (b: boolean | null) => (b === null ? -1 : b ? 1 : 0);
const untri = (n: number) => (n < 0 ? null : n === 1);
const num = (x: number | null) => (x === null ? NaN : x);
const unnum = (x: number) => (Number.isNaN(x) ? null : x);

export function toColumns(records: readonly ScoredRecord[]): RecordColumns {
  const n = records.length;
  const sceneIx = new Map<string, number>(),
    agentIx = new Map<string, number>();
  const ix = (m: Map<string, number>, k: string) => {
    let v = m.get(k);
    if (v === undefined) {
      v = m.size;
      m.set(k, v);
    }
    return v;
  };
  const c: RecordColumns = {
    length: n,
    ids: new Array<string>(n),
    scenes: [],
    agents: [],
    scene: new Uint16Array(n),
    agent: new Uint8Array(n),
    questionIndex: new Int32Array(n),
    answer: new Int8Array(n),
    gtFeasible: new Int8Array(n),
    outcome: new Int8Array(n),
    status: new Int8Array(n),
    pathValid: new Int8Array(n),
    rta: new Float32Array(n),
    rv: new Float32Array(n),
    failureModes: new Uint8Array(n),
    text: '',
    textAt: new Uint32Array(n + 1),
  };
  const parts: string[] = [];
  let at = 0;
  records.forEach((r, i) => {
    c.ids[i] = r.id;
    c.scene[i] = ix(sceneIx, r.scene);
    c.agent[i] = ix(agentIx, r.agent);
    c.questionIndex[i] = r.questionIndex ?? -1;
    c.answer[i] = ANSWERS.indexOf(r.answer);
    c.gtFeasible[i] = tri(r.gtFeasible);
    c.outcome[i] = r.outcome === null ? -1 : OUTCOMES.indexOf(r.outcome);
    c.status[i] = STATUSES.indexOf(r.status);
    c.pathValid[i] = tri(r.pathValid);
    c.rta[i] = num(r.rta);
    c.rv[i] = num(r.rv);
    c.failureModes[i] = r.failureModes.reduce((bits, m) => bits | (1 << FAILURE_MODES.indexOf(m)), 0);
    const t = `${r.reason} ${r.answer === null ? r.answerRaw : ''} ${r.pathTokens.join(' -> ')}`;
    parts.push(t);
    c.textAt[i] = at;
    at += t.length;
  });
  c.textAt[n] = at;
  c.text = parts.join('');
  c.scenes = [...sceneIx.keys()];
  c.agents = [...agentIx.keys()];
  return c;
}

/** Row i, rebuilt from the columns. */
export function rowAt(c: RecordColumns, i: number): RecordRow {
  const o = c.outcome[i]!;
  return {
    i,
    id: c.ids[i]!,
    scene: c.scenes[c.scene[i]!]!,
    questionIndex: c.questionIndex[i]! < 0 ? null : c.questionIndex[i]!,
    agent: c.agents[c.agent[i]!]!,
    answer: ANSWERS[c.answer[i]!] ?? null,
    gtFeasible: untri(c.gtFeasible[i]!),
    outcome: o < 0 ? null : OUTCOMES[o]!,
    status: STATUSES[c.status[i]!]!,
    pathValid: untri(c.pathValid[i]!),
    rta: unnum(c.rta[i]!),
    rv: unnum(c.rv[i]!),
    failureModes: FAILURE_MODES.filter((_, k) => (c.failureModes[i]! & (1 << k)) !== 0),
    text: c.text.slice(c.textAt[i]!, c.textAt[i + 1]!),
  };
}

/** The typed arrays of the columns, to transfer rather than copy. */
export function columnBuffers(c: RecordColumns): ArrayBuffer[] {
  return [c.scene, c.agent, c.questionIndex, c.answer, c.gtFeasible, c.outcome, c.status, c.pathValid, c.rta, c.rv, c.failureModes, c.textAt].map(
    (a) => a.buffer as ArrayBuffer,
  );
}

export type LiteReport = Omit<PaperReport, 'records' | 'unmatched' | 'excluded'> & {
  rows: RecordColumns;
  counts: { records: number; unmatched: number; excluded: number };
};
export interface LiteResult {
  reports: [string, LiteReport][];
  problems: Problem[];
}

export const allRecords = (r: PaperReport): ScoredRecord[] => {
  const out: ScoredRecord[] = [];
  for (const list of [r.records, r.excluded, r.unmatched]) for (const x of list) out.push(x);
  return out;
};

export function liteResult(result: { reports: [string, PaperReport][]; problems: Problem[] }): LiteResult {
  return {
    problems: result.problems,
    reports: result.reports.map(([model, r]) => {
      const { records, unmatched, excluded, ...rest } = r;
      return [model, { ...rest, rows: toColumns(allRecords(r)), counts: { records: records.length, unmatched: unmatched.length, excluded: excluded.length } }];
    }),
  };
}
