import { describe, expect, it } from 'vitest';
import type { ScoreWorkerReply } from '../../../src/core/scoring/workerProtocol.ts';
import { scoreHandler } from '../../../src/workers/scoreHandler.ts';

// A request the scoring worker cannot answer is answered as failed, naming the request: the page
// rejects that request's promise instead of waiting for it forever.

describe('the scoring worker when a reply fails', () => {
  it('a record request whose answer cannot be sent gets an error reply with its ticket', async () => {
    const replies: ScoreWorkerReply[] = [];
    const handle = scoreHandler({
      postMessage: (m) => {
        if (m.type === 'record' || m.type === 'export') throw new Error('could not be cloned');
        replies.push(m);
      },
    });
    await handle({ type: 'record', model: 'm', i: 0, ticket: 7 });
    await handle({ type: 'export', ticket: 8 });
    expect(replies).toEqual([
      { type: 'error', message: 'could not be cloned', ticket: 7 },
      { type: 'error', message: 'could not be cloned', ticket: 8 },
    ]);
  });
});
