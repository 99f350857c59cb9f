import { ByteSink, fromUtf8, utf8 } from './bytes.ts';
import { pyDumps, pyDumpValue, pyJsonFloat } from './pyDumps.ts';
import type { CompatFormatErrorRecord, CompatParsedRecord, CompatRecord, CompatRecordBase, CompatSummary } from './types.ts';

/**
 * The per-record JSONL: one `json.dumps(record, ensure_ascii=False)` per line, each ending in
 * "\n". Each record kind's line is spelled out field by field in the released scorer's key order
 * (a test checks it against a generic dump of the record) and encoded straight into bytes.
 */
export function toJsonl(records: readonly CompatRecord[]): string {
  const sink = new ByteSink();
  for (const r of records) writeRecordLine(r, sink);
  return fromUtf8(sink.bytes());
}

/** `json.dumps(record, ensure_ascii=False)`, without the newline. */
export function recordLine(r: CompatRecord): string {
  const sink = new ByteSink(4096);
  writeRecord(r, sink);
  return fromUtf8(sink.bytes());
}

/** One line of the JSONL, newline included. */
export function writeRecordLine(r: CompatRecord, sink: ByteSink): void {
  writeRecord(r, sink);
  sink.byte(0x0a);
}

const F = {
  qid: utf8('{"qid": '),
  scene: utf8(', "scene": '),
  agent: utf8(', "agent": '),
  entryIdx: utf8(', "entry_idx": '),
  question: utf8(', "status": null, "question": '),
  failed: utf8(', "ok": false, "error": '),
  failedGuessed: utf8(', "derive_method": null}'),
  formatError: utf8(', "ok": true, "format_error": true, "format_error_type": '),
  parsed: utf8(', "ok": true, "format_error": false, "format_error_type": null, "binary_bucket": null'),
  method: utf8(', "derive_method": '),
  srcName: utf8(', "src_name": '),
  tgtName: utf8(', "tgt_name": '),
  srcId: utf8(', "src_id": '),
  tgtId: utf8(', "tgt_id": '),
  formatErrorRest: utf8(
    ', "vlm_answer": "fail", "vlm_path_names_raw": [], "vlm_path_names_mapped": [], "vlm_path_ids": [], "pv_valid": null, "pv_errors": [], ' +
      '"rta_applicable": false, "traversability_score": null, "rv_applicable": false, "rv_score": null, "rv_judge_explanation": null, "rv_llm_model": ',
  ),
  formatErrorEnd: utf8(', "correct_answer": false, "binary_bucket": '),
  answerYes: utf8(', "vlm_answer": "yes"'),
  answerNo: utf8(', "vlm_answer": "no"'),
  pvValidTrue: utf8(', "pv_valid": true'),
  pvValidFalse: utf8(', "pv_valid": false'),
  rtaOne: utf8(', "rta_applicable": true, "traversability_score": 1.0'),
  rtaNotOne: utf8(', "rta_applicable": false, "traversability_score": 1.0'),
  raw: utf8(', "vlm_path_names_raw": '),
  mapped: utf8(', "vlm_path_names_mapped": '),
  ids: utf8(', "vlm_path_ids": '),
  pvErrors: utf8(', "pv_errors": '),
  rtaApplicable: utf8(', "rta_applicable": '),
  trav: utf8(', "traversability_score": '),
  rvApplicable: utf8(', "rv_applicable": '),
  rvScore: utf8(', "rv_score": '),
  rvExplanation: utf8(', "rv_judge_explanation": '),
  rvModel: utf8(', "rv_llm_model": '),
  doable: utf8(', "ground_truth_doable": '),
  correct: utf8(', "correct_answer": '),
  true: utf8('true'),
  false: utf8('false'),
  null: utf8('null'),
  close: utf8('}'),
  empty: utf8('[]'),
};

function writeRecord(r: CompatRecord, sink: ByteSink): void {
  sink.raw(F.qid);
  sink.str(r.qid);
  sink.raw(sceneAndAgent(r.scene));
  if (typeof r.agent === 'string') sink.raw(repeated(r.agent));
  else value(r.agent, sink);
  sink.raw(F.entryIdx);
  sink.int(r.entry_idx);
  sink.raw(F.question);
  if (typeof r.question === 'string') sink.raw(repeated(r.question));
  else value(r.question, sink);
  sink.raw(fileFields(r));
  if (!r.ok) {
    sink.raw(F.failed);
    sink.str(r.error);
    sink.raw('derive_method' in r ? F.failedGuessed : F.close);
    return;
  }
  if (r.format_error) {
    sink.raw(F.formatError);
    sink.str(r.format_error_type);
    guessed(r, sink);
    sink.raw(F.formatErrorRest);
    sink.str(r.rv_llm_model);
    sink.raw(F.doable);
    bool(r.ground_truth_doable, sink);
    sink.raw(F.formatErrorEnd);
    sink.str(r.binary_bucket);
    sink.raw(F.close);
    return;
  }
  sink.raw(F.parsed);
  guessed(r, sink);
  sink.raw(r.vlm_answer === 'yes' ? F.answerYes : F.answerNo);
  sink.raw(F.raw);
  strings(r.vlm_path_names_raw, sink);
  sink.raw(F.mapped);
  strings(r.vlm_path_names_mapped, sink);
  sink.raw(F.ids);
  strings(r.vlm_path_ids, sink);
  sink.raw(r.pv_valid ? F.pvValidTrue : F.pvValidFalse);
  sink.raw(F.pvErrors);
  strings(r.pv_errors, sink);
  if (r.traversability_score === 1) sink.raw(r.rta_applicable ? F.rtaOne : F.rtaNotOne);
  else {
    sink.raw(F.rtaApplicable);
    bool(r.rta_applicable, sink);
    sink.raw(F.trav);
    float(r.traversability_score, sink);
  }
  sink.raw(parsedTail(r));
}

/**
 * Everything after the traversability score, encoded once per combination: RV's three fields,
 * the judge's name and two booleans take few values (an explanation from the judge, when a path
 * smuggles in a reason, is encoded anew).
 */
const tails = new Map<string, Map<string | null, Uint8Array[]>>();
const KNOWN_EXPLANATIONS = new Set<string | null>([null, 'No reasoning provided by VLM', 'No valid proposed route for RV']);
function parsedTail(r: CompatParsedRecord): Uint8Array {
  const known = KNOWN_EXPLANATIONS.has(r.rv_judge_explanation) && (r.rv_score === null || r.rv_score === 0 || r.rv_score === 1);
  const key = (r.rv_applicable ? 1 : 0) | (r.rv_score === null ? 0 : r.rv_score === 0 ? 2 : 4) | (r.ground_truth_doable ? 8 : 0) | (r.correct_answer ? 16 : 0);
  let byExplanation = tails.get(r.rv_llm_model);
  if (!byExplanation) tails.set(r.rv_llm_model, (byExplanation = new Map()));
  let byKey = known ? byExplanation.get(r.rv_judge_explanation) : undefined;
  if (known && !byKey) byExplanation.set(r.rv_judge_explanation, (byKey = []));
  let bytes = byKey?.[key];
  if (!bytes) {
    const sink = scratchSink();
    sink.raw(F.rvApplicable);
    bool(r.rv_applicable, sink);
    sink.raw(F.rvScore);
    float(r.rv_score, sink);
    sink.raw(F.rvExplanation);
    str(r.rv_judge_explanation, sink);
    sink.raw(F.rvModel);
    sink.str(r.rv_llm_model);
    sink.raw(F.doable);
    bool(r.ground_truth_doable, sink);
    sink.raw(F.correct);
    bool(r.correct_answer, sink);
    sink.raw(F.close);
    bytes = sink.bytes().slice();
    if (byKey) byKey[key] = bytes;
  }
  return bytes;
}

/**
 * The endpoint guess's five fields, encoded once: a question's guess repeats for every agent and
 * model. Found by the question (whose hash its string already holds: it was looked up before) and
 * checked field by field, so records of any run, or of several, are written as they are.
 */
interface Guess {
  method: string;
  srcName: string;
  tgtName: string;
  srcId: string;
  tgtId: string;
  bytes: Uint8Array;
}
const guessCache = new Map<unknown, Guess[]>();
/** Guesses kept per question: one per scene that asks it (the same text may be asked in several). */
const GUESSES_PER_QUESTION = 64;
function guessed(r: CompatFormatErrorRecord | CompatParsedRecord, sink: ByteSink): void {
  const q = typeof r.question === 'string' ? r.question : null;
  let list = guessCache.get(q);
  if (!list) {
    if (guessCache.size >= 50_000) guessCache.clear();
    guessCache.set(q, (list = []));
  }
  for (const g of list) {
    if (g.srcId === r.src_id && g.tgtId === r.tgt_id && g.method === r.derive_method && g.srcName === r.src_name && g.tgtName === r.tgt_name) {
      sink.raw(g.bytes);
      return;
    }
  }
  const own = scratchSink();
  own.raw(F.method);
  own.str(r.derive_method);
  own.raw(F.srcName);
  own.str(r.src_name);
  own.raw(F.tgtName);
  own.str(r.tgt_name);
  own.raw(F.srcId);
  own.str(r.src_id);
  own.raw(F.tgtId);
  own.str(r.tgt_id);
  const bytes = own.bytes().slice();
  if (list.length >= GUESSES_PER_QUESTION) list.shift();
  list.push({ method: r.derive_method, srcName: r.src_name, tgtName: r.tgt_name, srcId: r.src_id, tgtId: r.tgt_id, bytes });
  sink.raw(bytes);
}

/** A value of the item as it was read (a Python value): strings, the common case, directly. */
function value(v: unknown, sink: ByteSink): void {
  if (typeof v === 'string') sink.str(v);
  else sink.text(pyDumpValue(v));
}

function bool(b: boolean, sink: ByteSink): void {
  sink.raw(b ? F.true : F.false);
}

function str(s: string | null, sink: ByteSink): void {
  if (s === null) sink.raw(F.null);
  else sink.str(s);
}

function float(x: number | null, sink: ByteSink): void {
  if (x === null) sink.raw(F.null);
  else sink.text(pyJsonFloat(x));
}

function strings(items: readonly (string | null)[], sink: ByteSink): void {
  if (items.length === 0) {
    sink.raw(F.empty);
    return;
  }
  sink.byte(0x5b);
  for (let i = 0; i < items.length; i++) {
    if (i) {
      sink.byte(0x2c);
      sink.byte(0x20);
    }
    str(items[i]!, sink);
  }
  sink.byte(0x5d);
}

/** The fields a file's records share, encoded once per file: its records hold the very same values, one after another. */
let lastFile: { source_file: string; model_setting: string; prompt_file: unknown; time_sec: unknown; bytes: Uint8Array } | null = null;
const FILE = { source: utf8(', "source_file": '), model: utf8(', "model_setting": '), prompt: utf8(', "prompt_file": '), time: utf8(', "time_sec": ') };
function fileFields(r: CompatRecordBase): Uint8Array {
  const f = lastFile;
  if (f && f.source_file === r.source_file && f.model_setting === r.model_setting && f.prompt_file === r.prompt_file && f.time_sec === r.time_sec)
    return f.bytes;
  const sink = scratchSink();
  sink.raw(FILE.source);
  sink.str(r.source_file);
  sink.raw(FILE.model);
  sink.str(r.model_setting);
  sink.raw(FILE.prompt);
  value(r.prompt_file, sink);
  sink.raw(FILE.time);
  value(r.time_sec, sink);
  lastFile = { source_file: r.source_file, model_setting: r.model_setting, prompt_file: r.prompt_file, time_sec: r.time_sec, bytes: sink.bytes().slice() };
  return lastFile.bytes;
}

/** Bytes kept by key in a bounded cache: past the limit it starts afresh. */
function encodedOnce(cache: Map<string, Uint8Array>, key: string, write: (sink: ReturnType<typeof scratchSink>) => void): Uint8Array {
  let bytes = cache.get(key);
  if (!bytes) {
    if (cache.size >= 50_000) cache.clear();
    const sink = scratchSink();
    write(sink);
    cache.set(key, (bytes = sink.bytes().slice()));
  }
  return bytes;
}

/**
 * Strings that come back in record after record (scenes, agents, questions: one question is
 * asked of every agent by every model) encoded once.
 */
const encoded = new Map<string, Uint8Array>();
const repeated = (s: string): Uint8Array => encodedOnce(encoded, s, (sink) => sink.str(s));

/** `, "scene": "<scene>", "agent": ` for a scene, encoded once. */
const sceneAgent = new Map<string, Uint8Array>();
const sceneAndAgent = (scene: string): Uint8Array =>
  encodedOnce(sceneAgent, scene, (sink) => {
    sink.raw(F.scene);
    sink.str(scene);
    sink.raw(F.agent);
  });

/** A sink for encoding small pieces to keep (copied out of it). */
let scratch: ByteSink | null = null;
function scratchSink(): ByteSink {
  (scratch ??= new ByteSink(1 << 16)).clear();
  return scratch;
}

/** Summary keys whose numbers Python holds as floats (the counters are ints). */
const SUMMARY_FLOATS = new Set([
  'rta_sum',
  'rv_sum',
  'accuracy',
  'pv_validity_rate',
  'avg_traversability_score',
  'avg_rv_score',
  'capnav_score',
  'f1',
  'pv',
  'rta',
  'rv',
  'pv_applicable_frac_over_ok',
  'rta_applicable_frac_over_ok',
  'rv_applicable_frac_over_ok',
  'precision',
  'recall',
  'f1_score',
]);

/** The summary as `json.dumps(summary, indent=2, ensure_ascii=False)` writes it (no final newline). */
export function toSummaryJson(summary: CompatSummary): string {
  return pyDumps(summary, { indent: 2, floatKeys: SUMMARY_FLOATS, ensureAscii: false });
}
