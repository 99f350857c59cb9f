// A thread that reads the result files of `score --compat reference` ahead of the scoring, so the
// thousands of open/stat/read/close calls overlap the work (see prefetch.ts): files in order, in
// batches of bytes handed over whole. A file it does not read plainly (cannot be opened, not a
// regular file, over the size limit) is marked, and the scoring thread reads it the usual way.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { MAX_TEXT_BYTES } from './files.ts';

const BATCH_BYTES = 1 << 20;
const paths = (workerData as { paths: string[] }).paths;

/** One file's bytes into `buf` at `at` (grown if need be); its length, or -1 when the scoring thread should read it. */
function readInto(path: string, batch: { buf: Buffer; at: number }): number {
  let fd: number;
  try { fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK); } catch { return -1; }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_TEXT_BYTES) return -1;
    if (batch.at + st.size > batch.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(2 * batch.buf.length, batch.at + st.size));
      batch.buf.copy(bigger, 0, 0, batch.at);
      batch.buf = bigger;
    }
    let len = 0;
    while (len < st.size) {
      const n = readSync(fd, batch.buf, batch.at + len, st.size - len, null);
      if (n === 0) break;
      len += n;
    }
    return len;
  } catch {
    return -1;
  } finally {
    closeSync(fd);
  }
}

for (let i = 0; i < paths.length;) {
  const batch = { buf: Buffer.allocUnsafe(BATCH_BYTES), at: 0 };
  const lengths: number[] = [];
  while (i < paths.length && batch.at < BATCH_BYTES / 2) {
    const len = readInto(paths[i++]!, batch);
    lengths.push(len);
    if (len > 0) batch.at += len;
  }
  const bytes = batch.buf.buffer.slice(batch.buf.byteOffset, batch.buf.byteOffset + batch.at);
  parentPort!.postMessage({ lengths, bytes }, [bytes]);
}
