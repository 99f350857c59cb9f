import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { formatProblem } from '../core/problems.ts';
import type { SourceFile } from '../formats/json.ts';
import { decodeText } from '../formats/text.ts';

/**
 * The command line's one way in and out of the file system. Every file it reads is opened once,
 * checked on the open descriptor to be a regular file no larger than a limit, and read with a
 * bounded read (so a link to /dev/zero, a named pipe or a file that grows while read can neither
 * hang a command nor fill memory); every failure is one line naming the file and the reason,
 * never a stack trace and never the file's content.
 */

/** The largest text file read (a release, prediction, answer, verdict or ground-truth file). */
export const MAX_TEXT_BYTES = 256 * 2 ** 20;
/** The largest scan file read (the mesh and each file beside it). */
export const MAX_MESH_BYTES = 2 ** 30;

/** An error the user caused (bad arguments, unknown option): printed without a stack trace, exit code 2. */
export class CliError extends Error {}

/** A failure of the inputs or outputs rather than of the arguments: printed, exit code 1. */
export class InputError extends Error {}

const mb = (n: number) => `${Math.ceil(n / 2 ** 20).toLocaleString('en')} MB`;

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

const isLink = (path: string): boolean => {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

/** The system's reason for a failed read or write, in words (a dangling link says so). */
function reason(e: unknown, path: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return isLink(path) ? 'a symbolic link to something that does not exist' : 'it does not exist';
    case 'ELOOP':
      return 'a loop of symbolic links';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file is in the way where a folder should be';
    case 'EROFS':
      return 'a read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    default:
      return code ?? (e instanceof Error ? e.message : String(e));
  }
}

/**
 * A file's bytes, at most `limit` of them. Opened without blocking (a named pipe with no writer
 * would otherwise wait forever), then checked on the descriptor itself, so what is checked is
 * what is read.
 */
export function readInput(path: string, what: string, limit = MAX_TEXT_BYTES): Buffer {
  const refuse = (why: string) => new InputError(`${path}: the ${what} cannot be read (${why})`);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw refuse(reason(e, path));
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw refuse(`${kindOf(st)}, not a file`);
    if (st.size > limit) throw refuse(`${mb(st.size)}, more than the limit of ${mb(limit)}`);
    const bytes = readBounded(fd, st.size, limit);
    if (!bytes) throw refuse(`it grew past the limit of ${mb(limit)} while being read`);
    return bytes;
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw refuse(reason(e, path));
  } finally {
    closeSync(fd);
  }
}

/** Read to the end, or return null past `limit` bytes whatever the size said. */
function readBounded(fd: number, expected: number, limit: number): Buffer | null {
  let buf = Buffer.allocUnsafe(Math.min(expected, limit) + 1);
  let len = 0;
  for (;;) {
    if (len === buf.length) {
      if (len > limit) return null;
      const bigger = Buffer.allocUnsafe(Math.min(limit + 1, len * 2));
      buf.copy(bigger, 0, 0, len);
      buf = bigger;
    }
    const n = readSync(fd, buf, len, buf.length - len, null);
    if (n === 0) return buf.subarray(0, len);
    len += n;
  }
}

/** A text file: UTF-8, or UTF-16 with a byte-order mark (`decodeText`); bytes of any other encoding refuse it with their offset. */
export function readInputText(path: string, what: string): string {
  const decoded = decodeText(path, readInput(path, what));
  if (!decoded.ok) throw new InputError(formatProblem(decoded.problem));
  return decoded.text;
}

/** What is at `path` (links followed), or an input error saying why it cannot be reached. */
export function statInput(path: string, what: string): Stats {
  try {
    return statSync(path);
  } catch (e) {
    throw new InputError(`${path}: the ${what} cannot be read (${reason(e, path)})`);
  }
}

/** What is at `path` (links followed), or undefined when nothing can be reached there (missing, a dangling link, a loop). */
function statQuietly(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `path` is a regular file (links followed); never throws. */
export const isRegularFile = (path: string): boolean => statQuietly(path)?.isFile() ?? false;

/**
 * The files under `root` whose names end in one of `extensions` (any case), read as text, paths
 * relative to it with `/`, each folder's entries in name order (so a run reads the same order on
 * every machine). `root` may be one file, read whatever its extension: its name is its path.
 * Links to files are followed; links to folders are not (said on stderr), so no link loop can
 * make the walk endless. A file with a wanted name that is not a readable regular file stops the
 * command (exit 1) naming it. `what` names the files in the error.
 */
export function readTree(root: string, extensions: readonly string[], what: string): SourceFile[] {
  if (!statInput(root, what).isDirectory()) return [{ path: basename(root), text: readInputText(root, what) }];
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      throw new InputError(`${dir}: the folder cannot be read (${reason(e, dir)})`);
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isSymbolicLink() && statQuietly(full)?.isDirectory()) {
        process.stderr.write(`traversa: note: ${full} is a link to a folder; not followed\n`);
      } else if (extensions.some((x) => entry.name.toLowerCase().endsWith(x)))
        out.push({ path: relative(root, full).split(sep).join('/'), text: readInputText(full, what) });
    }
  };
  walk(root);
  return out;
}

/** Every .json file of a release folder. */
export function readJsonFiles(root: string): SourceFile[] {
  if (!statInput(root, 'release').isDirectory()) throw new InputError(`${root}: the release cannot be read (not a folder)`);
  return readTree(root, ['.json'], 'release file');
}

/** Make `dir` (and its parents) for output; a file in the way or a read-only place is an error naming it. */
export function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new InputError(`${dir}: the folder cannot be made (${reason(e, dir)})`);
  }
}

/**
 * An output file opened for writing (its folder made first, truncated); a symbolic link at `path`
 * is refused, never written through. `write` writes a whole block; failures name the file.
 *
 * `inPlace`: an earlier file at `path` is written over where it lies and cut to the new length at
 * `close`, not truncated first. For a large output rewritten run after run (the 50 MB per-record
 * file) this keeps the old file's cached pages and disk blocks instead of freeing them and taking
 * new ones: measured here, 53 MB written over in ~6 ms against 15–30 ms truncated and ~100 ms into
 * memory the machine had not used yet. What readers see meanwhile is as unfinished either way.
 */
export function openOutput(path: string, { inPlace = false } = {}): { write: (data: Uint8Array) => void; close: () => void } {
  makeFolder(dirname(path));
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | (inPlace ? 0 : constants.O_TRUNC) | constants.O_NOFOLLOW, 0o666);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ELOOP' ? 'it is a symbolic link; not written through' : reason(e, path);
    throw new InputError(`${path}: cannot be written (${why})`);
  }
  // Only a regular file has a tail to cut (a device or pipe named as output is written as before).
  const cut = inPlace && fstatSync(fd).isFile();
  let written = 0;
  const failed = (e: unknown) => new InputError(`${path}: cannot be written (${reason(e, path)})`);
  return {
    write: (data) => {
      try {
        for (let at = 0; at < data.length;) at += writeSync(fd, data, at, data.length - at);
      } catch (e) {
        throw failed(e);
      }
      written += data.length;
    },
    close: () => {
      try {
        if (cut) ftruncateSync(fd, written);
      } catch (e) {
        throw failed(e);
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** Write one output file (its folder made first). A symbolic link at `path` is refused, never written through. */
export function writeOutput(path: string, text: string | Uint8Array): void {
  const out = openOutput(path);
  try {
    out.write(typeof text === 'string' ? Buffer.from(text) : text);
  } finally {
    out.close();
  }
}

/** Copy a (possibly large) input file to an output, a block at a time, as writeOutput writes. */
export function copyOutput(from: string, to: string): void {
  const out = openOutput(to);
  let fd: number | undefined;
  try {
    fd = openSync(from, 'r');
    const block = Buffer.alloc(4 * 2 ** 20);
    for (let n; (n = readSync(fd, block, 0, block.length, null)) > 0;) out.write(block.subarray(0, n));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${from}: cannot be read (${reason(e, from)})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
    out.close();
  }
}

export function writeFiles(root: string, files: readonly SourceFile[]): void {
  for (const f of files) writeOutput(join(root, f.path), f.text);
}
