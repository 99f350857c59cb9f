import type { Problem } from '../core/problems.ts';

/**
 * The one way a file's bytes become text, on the command line and in the browser alike: UTF-8,
 * or UTF-16 (little or big endian) when the file starts with its byte-order mark. Bytes that are
 * not valid in that encoding (a Latin-1 "é", a cut multi-byte sequence, a lone surrogate) refuse
 * the file with the byte offset, rather than turning into U+FFFD that `convert` or an export would
 * then write back as if it were the data. A byte-order mark stays at the start of the text as
 * U+FEFF: the JSON readers skip it, and the reference-compatible scorer judges it as Python does.
 */
export type DecodedText = { ok: true; text: string } | { ok: false; problem: Problem };

/** Text without the byte-order mark it may start with (what every JSON and JSON Lines reader reads). */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

function encodingOf(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

export function decodeText(path: string, bytes: Uint8Array): DecodedText {
  const encoding = encodingOf(bytes);
  try {
    return { ok: true, text: new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    const at = firstBadByte(encoding, bytes);
    const what = encoding === 'utf-8' ? 'UTF-8' : `UTF-16 (${encoding === 'utf-16le' ? 'little' : 'big'} endian, from its byte-order mark)`;
    return {
      ok: false,
      problem: {
        severity: 'fatal',
        code: 'text.encoding',
        file: path,
        location: `byte ${at}`,
        message: `not valid ${what}; save the file as UTF-8, or as UTF-16 with a byte-order mark`,
      },
    };
  }
}

/**
 * The offset where the first character that cannot be decoded starts. A streaming decode accepts
 * a prefix that stops inside a character, so bisection finds the shortest prefix refused; the bad
 * character starts at the longest prefix before it that decodes whole (at most three bytes back).
 * Only run on a file already refused, so its cost (a few dozen decodes) does not matter.
 */
function firstBadByte(encoding: string, bytes: Uint8Array): number {
  const decodes = (n: number, stream: boolean) => {
    try {
      new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, n), { stream });
      return true;
    } catch {
      return false;
    }
  };
  let end = bytes.length - 1; // when only the end is wrong: a character begun and never finished
  if (!decodes(bytes.length, true)) {
    let lo = 0,
      hi = bytes.length; // the prefix of lo bytes streams, the one of hi bytes is refused
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (decodes(mid, true)) lo = mid;
      else hi = mid;
    }
    end = hi - 1;
  }
  while (end > 0 && !decodes(end, false)) end--;
  return end;
}
