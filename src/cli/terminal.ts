/**
 * What the command line prints comes partly from its inputs (node names, questions, model names,
 * file names, a judge's reply), and a terminal obeys control characters in it: ESC starts
 * sequences that clear the screen, move the cursor, set the window title or write to the
 * clipboard. Everything written to stdout and stderr passes `forTerminal`, which shows each such
 * character as its `\uXXXX` escape instead. Line feeds and tabs are kept. Inside JSON output the
 * escape is the same character written the JSON way, so `--json` stays valid and means the same;
 * the files written (`--out`) are not touched.
 *
 * Replaced: C0 controls but tab and line feed (ESC, BEL, backspace, carriage return, …), DEL,
 * C1 controls (U+0080–U+009F, CSI and OSC among them) and the bidirectional overrides and isolates
 * that make text read differently from what it is (U+202A–U+202E, U+2066–U+2069).
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export const forTerminal = (text: string): string => text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Route every string written to `stream` through `forTerminal` (bytes are passed through as they are). */
export function guardTerminal(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? forTerminal(chunk) : chunk, ...rest)) as typeof stream.write;
}
