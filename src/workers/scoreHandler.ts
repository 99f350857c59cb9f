import { runScoring, throttled, type ScoringOutcome } from '../core/scoring/pipeline.ts';
import { liteOutcome, outcomeBuffers, recordAt, type ScoreWorkerReply, type ScoreWorkerRequest } from '../core/scoring/workerProtocol.ts';
import { predictionReaders } from '../formats/predictions/read.ts';
import { reportFiles } from '../formats/scoreDownloads.ts';
import { yieldNow } from '../engine/yieldNow.ts';

/** Where replies go: the worker's global scope, or a test standing in for it. */
export interface ScoreReplyPort {
  postMessage(message: ScoreWorkerReply, transfer: Transferable[]): void;
}

/**
 * The scoring worker's body: the pipeline of core/scoring/pipeline.ts behind the protocol of
 * core/scoring/workerProtocol.ts. It keeps the last run's full records and sends the page light
 * rows; everything a run decides is the pipeline's, exactly as on the command line.
 */
export function scoreHandler(port: ScoreReplyPort): (message: ScoreWorkerRequest) => Promise<void> {
  let last: ScoringOutcome | null = null;
  const reply = (m: ScoreWorkerReply, transfer: Transferable[] = []) => port.postMessage(m, transfer);
  return async (m) => {
    try {
      if (m.type === 'score') {
        last = null;
        last = await runScoring(m.request, predictionReaders, {
          chunkSize: 5000,
          yieldNow,
          onProgress: throttled((progress) => reply({ type: 'progress', progress })),
        });
        const result = liteOutcome(last);
        reply({ type: 'done', result }, outcomeBuffers(result));
      } else if (m.type === 'record') {
        reply({ type: 'record', ticket: m.ticket, record: recordAt(last, m.model, m.i) });
      } else if (m.type === 'export') {
        reply({ type: 'export', ticket: m.ticket, files: last?.mode === 'paper' ? reportFiles(last, m.only) : null });
      }
    } catch (err) {
      // A failed record or export request is answered as such, or the page would wait for it forever.
      reply({ type: 'error', message: err instanceof Error ? err.message : String(err), ...(m.type === 'score' ? {} : { ticket: m.ticket }) });
    }
  };
}

/** The scoring service as engine/workerPort.ts runs it, in the worker or on the page. */
export const scoreService = (reply: (m: ScoreWorkerReply, transfer?: Transferable[]) => void) => {
  const handle = scoreHandler({ postMessage: (m, transfer) => reply(m, transfer) });
  return (m: ScoreWorkerRequest) => handle(m);
};
