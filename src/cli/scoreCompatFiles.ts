import { isAscii } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import { ByteSink } from '../core/scoring/compat/bytes.ts';
import { writeRecordLine, SummaryCounter, type CompatRecord, type ReferenceScorer } from '../core/scoring/compat/index.ts';
import { decodeText } from '../formats/text.ts';
import { MAX_TEXT_BYTES, openOutput, readInputText } from './files.ts';

export interface ScoredFiles {
  pooled: SummaryCounter;
  /** One counter per model folder asked for (the paths' first component). */
  perModel: [string, SummaryCounter][];
  /** Model → records repeating a (scene, agent, question) of that model seen before. */
  repeats: [string, number][];
}

/**
 * Read, score and write the files one at a time, in the order given (the released scorer's),
 * keeping counters, not records: each file's text, values and records are let go at once, and
 * the lines go to `jsonlPath` in blocks as they are made.
 */
export function scoreFiles(pred: string, paths: readonly string[], models: readonly string[], scorer: ReferenceScorer, jsonlPath: string): ScoredFiles {
  const pooled = new SummaryCounter();
  const perModel = new Map(models.map((m) => [m, new SummaryCounter()]));
  const repeats = new RepeatCounter();
  const out = outputFile(jsonlPath);
  // The listing's paths are folder and file names as read (no `.`, `..` or empty parts): joined as they are, not normalised 4,500 times.
  const under = pred.endsWith('/') ? pred : `${pred}/`;
  const jsonl = new ByteSink(4 << 20, out.write);
  try {
    for (const path of paths) {
      const outcome = scorer.score({ path, text: readResultFile(under + path) });
      pooled.add(outcome);
      perModel.get(path.slice(0, path.indexOf('/')))?.add(outcome);
      for (const r of outcome.records) {
        writeRecordLine(r, jsonl);
        repeats.add(r);
      }
    }
    jsonl.flush();
  } catch (e) {
    out.abandon();
    throw e;
  }
  out.close();
  return { pooled, perModel: [...perModel], repeats: repeats.counts() };
}

/** An output file written block by block (files.ts `openOutput`); given up (on a failure while scoring), it is removed rather than left half written. */
function outputFile(path: string): { write: (block: Uint8Array) => void; close: () => void; abandon: () => void } {
  const out = openOutput(path, { inPlace: true });
  return {
    ...out,
    abandon: () => {
      try {
        out.close();
      } catch {
        /* closed already */
      }
      try {
        unlinkSync(path);
      } catch {
        /* nothing to remove */
      }
    },
  };
}

function decoded(path: string, bytes: Buffer): string {
  if (isAscii(bytes)) return bytes.toString('latin1');
  const text = decodeText(path, bytes);
  return text.ok ? text.text : readInputText(path, 'predictions');
}

/** One buffer for every file read on this thread, grown as needed. */
let scratch = Buffer.allocUnsafe(1 << 20);

/**
 * A result file's text, read with the checks every input gets (opened without blocking, checked
 * on its descriptor to be a regular file within the size limit, never more read than that) but
 * cheaply, for thousands of files: into one reused buffer, ASCII taken as it is, anything else
 * decoded as UTF-8. A file that is not plainly readable is read again the one shared way, which
 * refuses it with the usual message. (A thread reading ahead was measured here: no faster, the
 * two processors being mostly busy with other work.)
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
    return decoded(path, scratch.subarray(0, len));
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

  /** The question set of the last (model, scene, agent): a file's records share them. */
  private last: { model: string; scene: string; agent: string; questions: Set<string> } | null = null;

  add(r: CompatRecord): void {
    if (typeof r.agent !== 'string' || typeof r.question !== 'string') return;
    const last = this.last;
    const questions =
      last && last.model === r.model_setting && last.scene === r.scene && last.agent === r.agent
        ? last.questions
        : this.questionsOf(r.model_setting, r.scene, r.agent);
    if (questions.has(r.question)) this.repeats.set(r.model_setting, (this.repeats.get(r.model_setting) ?? 0) + 1);
    else questions.add(r.question);
  }

  private questionsOf(model: string, scene: string, agent: string): Set<string> {
    let byScene = this.seen.get(model);
    if (!byScene) this.seen.set(model, (byScene = new Map()));
    let byAgent = byScene.get(scene);
    if (!byAgent) byScene.set(scene, (byAgent = new Map()));
    let questions = byAgent.get(agent);
    if (!questions) byAgent.set(agent, (questions = new Set()));
    this.last = { model, scene, agent, questions };
    return questions;
  }

  counts(): [string, number][] {
    return [...this.repeats];
  }
}
