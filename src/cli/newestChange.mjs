// Plain JavaScript: the command line's launcher (bundle.mjs) uses it before anything is built.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest change (mtime, ms) of the files under `dir` whose names `counts`: what a build made from them must be newer than. */
export function newestChange(dir, counts = () => true) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestChange(full, counts));
    else if (counts(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}
