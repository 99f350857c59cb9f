import { strToU8, zipSync } from 'fflate';
import { relativePathProblem } from '../core/pathNames.ts';

/**
 * A file for a zip: its path inside the zip's folder, its text (or bytes: a video, a JPEG), and
 * what it is from (named when it is refused).
 */
export type ZipFile = { path: string; text: string; from?: string } | { path: string; bytes: Uint8Array; from?: string };

/** An entry name a naive extractor would write outside its folder (or cannot write at all). */
export class UnsafeZipEntryError extends Error {
  override name = 'UnsafeZipEntryError';
}

/**
 * The one zip writer: every file under one top folder, each entry name checked first
 * (`relativePathProblem`: relative, `/` only, no `..`, no drive letter, no control characters).
 * One unsafe name refuses the whole zip, naming the entry and what it came from — a zip with the
 * entry silently left out would look complete.
 */
export function zipFolder(folder: string, files: readonly ZipFile[]): Uint8Array {
  const entries: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = {};
  for (const f of files) {
    const name = `${folder}/${f.path}`;
    const problem = relativePathProblem(name);
    if (problem) throw new UnsafeZipEntryError(`the zip entry ${JSON.stringify(name)}${f.from ? ` (${f.from})` : ''} ${problem}; nothing was exported`);
    if (Object.hasOwn(entries, name))
      throw new UnsafeZipEntryError(
        `two files would be the zip entry ${JSON.stringify(name)}${f.from ? ` (the second: ${f.from})` : ''}; nothing was exported`,
      );
    // Videos and JPEGs are compressed already: stored as they are, they zip fast and no larger.
    entries[name] = 'bytes' in f ? [f.bytes, { level: 0 }] : strToU8(f.text);
  }
  return zipSync(entries, { level: 6 });
}
