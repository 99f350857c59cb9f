import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { SourceFile } from '../formats/json.ts';

/** Every .json file under `root`, with paths relative to it (forward slashes). */
export function readJsonFiles(root: string): SourceFile[] {
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`${root} is not a folder`);
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.toLowerCase().endsWith('.json')) out.push({ path: relative(root, full).split(sep).join('/'), text: readFileSync(full, 'utf8') });
    }
  };
  walk(root);
  return out;
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
