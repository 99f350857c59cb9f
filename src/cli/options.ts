import { CliError } from './files.ts';
import { parseShard, type Shard } from '../core/shard.ts';

/**
 * The options each command takes are the ones its lines of the help text name, so the help and
 * what is accepted cannot drift apart. A command's lines are the one starting with its name (two
 * spaces in) and the more deeply indented lines after it.
 */
export function optionsByCommand(usage: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let current: Set<string> | null = null;
  for (const line of usage.split('\n')) {
    const head = /^ {2}([a-z][a-z-]*)(?: |$)/.exec(line);
    if (head) {
      current = out.get(head[1]!) ?? new Set();
      out.set(head[1]!, current);
    } else if (!/^ {3,}\S/.test(line)) current = null;
    if (current) for (const m of line.matchAll(/--([a-z][a-z0-9-]*)/g)) current.add(m[1]!);
  }
  return out;
}

/**
 * An option the command does not take is refused (exit 2) rather than ignored: a mistyped
 * `--boostrap 1000` would otherwise score without intervals and say nothing.
 */
export function refuseUnknownOptions(command: string, given: Iterable<string>, known: ReadonlyMap<string, ReadonlySet<string>>): void {
  const takes = known.get(command);
  if (!takes) return; // help, or an unknown command (refused on its own)
  for (const flag of given) {
    if (takes.has(flag)) continue;
    const list = [...takes].map((f) => `--${f}`).join(', ');
    throw new CliError(`unknown option --${flag}: ${command} takes ${list || 'no options'} (see "help")`);
  }
}

/** A number option (any finite number: its range is the command's to check); absent, `dflt`. */
export function numberOption(flag: string, v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new CliError(`--${flag} takes a number, not "${v}"`);
  return n;
}

/** A whole-number option between 0 and `max`; absent, `dflt`. */
export function wholeNumber(flag: string, v: string | undefined, dflt: number, max: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (v.trim() === '' || !Number.isInteger(n) || n < 0 || n > max) {
    throw new CliError(`--${flag} takes a whole number from 0 to ${max.toLocaleString('en')}, not "${v}"`);
  }
  return n;
}

/** `--shard i/N` (core/shard.ts); absent, undefined: the whole run. */
export function shardOption(v: string | undefined): Shard | undefined {
  if (v === undefined) return undefined;
  const s = parseShard(v);
  if (typeof s === 'string') throw new CliError(s);
  return s;
}

/** `--up`: the scan's up axis, y (default) or z. */
export function upAxisOf(value: string | undefined): 'y' | 'z' {
  if (value === undefined) return 'y';
  if (value !== 'y' && value !== 'z') throw new CliError(`--up must be y or z (got ${value})`);
  return value;
}
