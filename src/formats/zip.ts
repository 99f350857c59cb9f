import { strToU8, Zip, ZipDeflate, zipSync } from 'fflate';
import { joinBytes } from '../core/arrays.ts';
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
    const name = entryName(folder, f.path, f.from, (n) => Object.hasOwn(entries, n));
    // Videos and JPEGs are compressed already: stored as they are, they zip fast and no larger.
    entries[name] = 'bytes' in f ? [f.bytes, { level: 0 }] : strToU8(f.text);
  }
  return zipSync(entries, { level: 6 });
}

/** The entry name of `path` under `folder` (null: the zip's root), refused when unsafe or already taken. */
function entryName(folder: string | null, path: string, from: string | undefined, taken: (name: string) => boolean): string {
  const name = folder === null ? path : `${folder}/${path}`;
  const problem = relativePathProblem(name);
  if (problem) throw new UnsafeZipEntryError(`the zip entry ${JSON.stringify(name)}${from ? ` (${from})` : ''} ${problem}; nothing was exported`);
  if (taken(name))
    throw new UnsafeZipEntryError(`two files would be the zip entry ${JSON.stringify(name)}${from ? ` (the second: ${from})` : ''}; nothing was exported`);
  return name;
}

/**
 * The same writer a piece at a time, for files too large to hold twice as text (a 30-scene
 * training split is ~18 MB): the entries are `paths` in that order (one with no piece is an empty
 * file), each piece deflated as it comes, `pause()` between pieces so a page paints. The pieces must
 * come in the order of `paths`; one of another or no entry refuses the zip. `folder` null: the
 * entries at the zip's root.
 */
export async function zipPieces(
  folder: string | null,
  paths: readonly string[],
  pieces: Iterator<{ path: string; bytes: Uint8Array }>,
  pause: () => Promise<void>,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    chunks.push(data);
  });
  const names = new Set<string>();
  let next = pieces.next();
  for (const path of paths) {
    const name = entryName(folder, path, undefined, (n) => names.has(n));
    names.add(name);
    const file = new ZipDeflate(name, { level: 6 });
    zip.add(file);
    for (; !next.done && next.value.path === path; next = pieces.next()) {
      file.push(next.value.bytes);
      await pause();
    }
    file.push(new Uint8Array(0), true);
  }
  if (!next.done) throw new UnsafeZipEntryError(`a piece of ${JSON.stringify(next.value.path)} came out of the entries' order; nothing was exported`);
  zip.end();
  return joinBytes(chunks);
}
