import type { ReplyCache } from '../core/taskgen/ask.ts';
import type { TraversaDb } from './db.ts';

/**
 * The task-generation endpoint's replies kept in this browser (IndexedDB), as the judge's verdicts
 * are: asking again with the same prompt, frames and model reads the reply back instead of paying
 * for it again. Keys are hashes of what was asked; replies were redacted before they got here.
 */
export function dbReplyCache(db: TraversaDb): ReplyCache {
  return {
    get: async (key) => (await db.replies.get(key))?.content,
    set: async (key, content) => {
      await db.replies.put({ key, content, savedAt: Date.now() });
    },
  };
}
