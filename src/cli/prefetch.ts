import { isAscii } from 'node:buffer';
import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { decodeText } from '../formats/text.ts';
import { MAX_TEXT_BYTES, readInputText } from './files.ts';

/**
 * The texts of many input files, in order. With a second processor, a reader thread
 * (scoreCompatReader.ts, beside the built bundle) opens and reads them ahead while this thread
 * works; otherwise, or when running from the sources, they are read here, one at a time. Either
 * way a file gets the checks every input gets (opened without blocking, checked on its descriptor
 * to be a regular file within the size limit, never more read than that), ASCII is taken as it
 * is and anything else must be UTF-8; a file that is not plainly readable is read again the one
 * shared way, which refuses it with the usual message.
 */
export interface Texts {
  next(): Promise<string>;
  /** Stop reading ahead (after a failure). */
  stop(): void;
}

/** Files read here while the reader thread starts (about its start-up time's worth). */
const FIRST_HERE = 200;

export function readAhead(paths: readonly string[], threads: number): Texts {
  const reader = threads >= 2 && paths.length >= 200 ? readerFile() : null;
  if (!reader) {
    let i = 0;
    return { next: async () => readHere(paths[i++]!), stop: () => {} };
  }
  // While the thread starts, this one reads the first files itself.
  const first = Math.min(FIRST_HERE, paths.length);
  const worker = new Worker(reader, { workerData: { paths: paths.slice(first) } });
  const batches: { lengths: number[]; bytes: ArrayBuffer }[] = [];
  let waiting: (() => void) | null = null, failure: Error | null = null;
  worker.on('message', (b: { lengths: number[]; bytes: ArrayBuffer }) => { batches.push(b); waiting?.(); });
  worker.on('error', (e) => { failure = e; waiting?.(); });
  let i = 0, batch: { lengths: number[]; bytes: ArrayBuffer } | null = null, inBatch = 0, at = 0;
  return {
    async next() {
      const path = paths[i++]!;
      if (i <= first) return readHere(path);
      if (!batch || inBatch === batch.lengths.length) {
        while (!batches.length) {
          if (failure) throw failure;
          await new Promise<void>((resolve) => { waiting = resolve; });
          waiting = null;
        }
        batch = batches.shift()!;
        inBatch = 0;
        at = 0;
      }
      const len = batch.lengths[inBatch++]!;
      if (len < 0) return readInputText(path, 'predictions');
      const bytes = Buffer.from(batch.bytes, at, len);
      at += len;
      return decoded(path, bytes);
    },
    stop: () => { void worker.terminate(); },
  };
}

function decoded(path: string, bytes: Buffer): string {
  if (isAscii(bytes)) return bytes.toString('latin1');
  const text = decodeText(path, bytes);
  return text.ok ? text.text : readInputText(path, 'predictions');
}

/** One buffer for every file read on this thread, grown as needed. */
let scratch = Buffer.allocUnsafe(1 << 20);

function readHere(path: string): string {
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

/** The reader thread's entry beside the running bundle; none when running from the sources. */
let reader: string | null | undefined;
function readerFile(): string | null {
  if (reader === undefined) {
    reader = null;
    for (const rel of ['./scoreCompatReader.mjs', '../scoreCompatReader.mjs']) {
      const path = fileURLToPath(new URL(rel, import.meta.url));
      if (path.endsWith('.mjs') && existsSync(path)) { reader = path; break; }
    }
  }
  return reader;
}
