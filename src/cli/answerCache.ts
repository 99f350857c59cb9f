import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelAnswer } from '../core/evalinputs/run.ts';
import type { ReadReply } from '../formats/predictions/modelReply.ts';
import { InputError } from './files.ts';

/**
 * run-model's answers on disk, one file per answer: `<dir>/<k0k1>/<key>.answer` (JSON; the
 * extension keeps both scorers from reading them as predictions when the cache sits under the
 * results folder). Each answer is written (to a temporary file, then renamed) as soon as it
 * arrives, so a run killed at any moment keeps every answer it had, and a half-written file
 * never exists. Keys are `answerKey` digests (model, prompt, frames); the entries hold the
 * redacted reply and its reading, never the API key.
 */
export interface AnswerCache {
  get(key: string): ModelAnswer<ReadReply> | undefined;
  set(key: string, answer: ModelAnswer<ReadReply>, about: Record<string, unknown>): void;
  readonly dir: string;
}

const FORMAT = 'traversa-model-answer';

export function answerCache(dir: string): AnswerCache {
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}.answer`);
  return {
    dir,
    get(key) {
      const path = pathOf(key);
      if (!existsSync(path)) return undefined;
      try {
        const entry = JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown; answer?: ModelAnswer<ReadReply> };
        if (entry.format !== FORMAT || typeof entry.answer !== 'object' || entry.answer === null) return undefined;
        return entry.answer;
      } catch {
        return undefined; // unreadable: asked again, and the file replaced
      }
    },
    set(key, answer, about) {
      const path = pathOf(key);
      const tmp = `${path}.${process.pid}.tmp`;
      try {
        mkdirSync(join(dir, key.slice(0, 2)), { recursive: true });
        writeFileSync(tmp, JSON.stringify({ format: FORMAT, version: 1, ...about, answer }, null, 1) + '\n');
        renameSync(tmp, path);
      } catch (e) {
        throw new InputError(`${path}: the answer cache cannot be written (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      }
    },
  };
}
