import { isAscii } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { ByteSink } from '../core/scoring/compat/bytes.ts';
import { writeRecordLine, SummaryCounter, type CompatRecord, type ReferenceScorer } from '../core/scoring/compat/index.ts';
import { decodeText } from '../formats/text.ts';
import { MAX_TEXT_BYTES, readInputText } from './files.ts';

export interface ScoredFiles {
  /** The lines of scored_per_record.jsonl. */
  bytes: Uint8Array;
  pooled: SummaryCounter;
  /** One counter per model folder asked for (the paths' first component). */
  perModel: [string, SummaryCounter][];
  /** Model → records repeating a (scene, agent, question) of that model seen before. */
  repeats: [string, number][];
}

/**
 * Read, score and write the files one at a time, in the order given (the released scorer's),
 * keeping counters, not records: each file's text, values and records are let go at once.
 * `blockSize`: the output block (large: fresh memory costs only the pages written).
 */
export function scoreFiles(pred: string, paths: readonly string[], models: readonly string[], scorer: ReferenceScorer, blockSize: number): ScoredFiles {
  const pooled = new SummaryCounter();
  const perModel = new Map(models.map((m) => [m, new SummaryCounter()]));
  const repeats = new RepeatCounter();
  const jsonl = new ByteSink(blockSize);
  for (const path of paths) {
    const outcome = scorer.score({ path, text: readResultFile(join(pred, path)) });
    pooled.add(outcome);
    perModel.get(path.slice(0, path.indexOf('/')))?.add(outcome);
    for (const r of outcome.records) { writeRecordLine(r, jsonl); repeats.add(r); }
  }
  return { bytes: jsonl.bytes(), pooled, perModel: [...perModel], repeats: repeats.counts() };
}

/** One buffer for every file's bytes, grown as needed: thousands of files, each let go at once. */
let scratch = Buffer.allocUnsafe(1 << 20);

/**
 * A result file's text, read with the checks every input gets (opened without blocking, checked
 * on its descriptor to be a regular file within the size limit, never more read than that) but
 * cheaply, for thousands of files: into one reused buffer, a file of ASCII taken as it is (UTF-8
 * checked otherwise). Anything unusual — it cannot be opened, is not a regular file, is too big,
 * is not UTF-8 — is read again the one shared way, which refuses it with the usual message.
 */
function readResultFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return readInputText(path, 'predictions');
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_TEXT_BYTES) return readInputText(path, 'predictions');
    if (scratch.length < st.size) scratch = Buffer.allocUnsafe(Math.max(st.size, 2 * scratch.length));
    // As much as the file held when it was checked: a file growing meanwhile is read as it was.
    let len = 0;
    while (len < st.size) {
      const n = readSync(fd, scratch, len, st.size - len, null);
      if (n === 0) break;
      len += n;
    }
    const bytes = scratch.subarray(0, len);
    if (isAscii(bytes)) return bytes.toString('latin1');
    const decoded = decodeText(path, bytes);
    return decoded.ok ? decoded.text : readInputText(path, 'predictions');
  } finally {
    closeSync(fd);
  }
}

/**
 * The released scorer scores every record, a (model, scene, agent, question) given twice included.
 * Counts the repeats per model (by `model_setting`) to say so once, where the user looks.
 */
class RepeatCounter {
  /** Model → scene → agent → the questions seen. */
  private readonly seen = new Map<string, Map<string, Map<string, Set<string>>>>();
  private readonly repeats = new Map<string, number>();

  add(r: CompatRecord): void {
    if (typeof r.agent !== 'string' || typeof r.question !== 'string') return;
    let byScene = this.seen.get(r.model_setting);
    if (!byScene) this.seen.set(r.model_setting, (byScene = new Map()));
    let byAgent = byScene.get(r.scene);
    if (!byAgent) byScene.set(r.scene, (byAgent = new Map()));
    let questions = byAgent.get(r.agent);
    if (!questions) byAgent.set(r.agent, (questions = new Set()));
    if (questions.has(r.question)) this.repeats.set(r.model_setting, (this.repeats.get(r.model_setting) ?? 0) + 1);
    else questions.add(r.question);
  }

  counts(): [string, number][] {
    return [...this.repeats];
  }
}
