import { CliError } from './files.ts';

/** A whole-number option between 0 and `max`; absent, `dflt`. */
export function wholeNumber(flag: string, v: string | undefined, dflt: number, max: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (v.trim() === '' || !Number.isInteger(n) || n < 0 || n > max) {
    throw new CliError(`--${flag} takes a whole number from 0 to ${max.toLocaleString('en')}, not "${v}"`);
  }
  return n;
}
