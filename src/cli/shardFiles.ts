import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, readInputText, statInput } from './files.ts';

/** One shard's output as `merge` reads it: the file, and its JSON (checked by the merge of its kind). */
export interface ShardOutput {
  file: string;
  format: string;
  doc: unknown;
}

/**
 * The file a shard writes inside its `--out` folder, by kind; a shard whose output is one file
 * (`suggest`, `drive`: their stdout) is named directly.
 */
export const SHARD_FILES = ['scored_shard.json', 'shard.json'] as const;

/** Each argument of `merge`: a shard's output file, or the folder a shard wrote it into. */
export function readShardOutputs(paths: readonly string[]): ShardOutput[] {
  if (!paths.length) throw new InputError("merge needs the shards' outputs: each shard's --out folder, or the file a shard printed");
  return paths.map((p) => {
    const file = statInput(p, 'shard output').isDirectory() ? SHARD_FILES.map((n) => join(p, n)).find((f) => existsSync(f)) : p;
    if (!file) throw new InputError(`${p}: no shard output in this folder (looked for ${SHARD_FILES.join(', ')}; was the command run with --shard?)`);
    let doc: unknown;
    try {
      doc = JSON.parse(readInputText(file, 'shard output'));
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`${file}: not JSON (${e instanceof Error ? e.message : String(e)}); give the file a command wrote with --shard`);
    }
    const format = typeof doc === 'object' && doc && 'format' in doc && typeof doc.format === 'string' ? doc.format : '';
    return { file, format, doc };
  });
}
