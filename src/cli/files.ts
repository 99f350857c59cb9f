import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { SourceFile } from '../formats/json.ts';

/**
 * The files under `root` whose names end in one of `extensions` (any case), read as text, paths
 * relative to it with `/`, each folder's entries in name order (so a run reads the same order on
 * every machine). `root` may be one file, read whatever its extension: its name is its path.
 * `what` names the files in the error when one cannot be read.
 */
export function readTree(root: string, extensions: readonly string[], what: string): SourceFile[] {
  const st = statSync(root, { throwIfNoEntry: false });
  if (!st) throw new CliError(`${root} does not exist`);
  if (st.isFile()) return [{ path: basename(root), text: readInputText(root, what) }];
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (extensions.some((x) => entry.name.toLowerCase().endsWith(x))) out.push({ path: relative(root, full).split(sep).join('/'), text: readInputText(full, what) });
    }
  };
  walk(root);
  return out;
}

/** Every .json file of a release folder. */
export function readJsonFiles(root: string): SourceFile[] {
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`${root} is not a folder`);
  return readTree(root, ['.json'], 'release file');
}

export function writeFiles(root: string, files: readonly SourceFile[]): void {
  for (const f of files) {
    const full = join(root, f.path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, f.text);
  }
}

/** An error the user caused (bad arguments, missing folder): printed without a stack trace. */
export class CliError extends Error {}

/** A failure of the inputs rather than of the arguments: printed, exit code 1. */
export class InputError extends Error {}

/** A file's bytes; an unreadable file is the user's input failing, said with the path and the system's reason. */
export function readInput(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new InputError(`${path}: the ${what} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

export const readInputText = (path: string, what: string): string => readInput(path, what).toString('utf8');
