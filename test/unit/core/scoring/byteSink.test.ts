import { describe, expect, it } from 'vitest';
import { ByteSink, fromUtf8 } from '../../../../src/core/scoring/compat/bytes.ts';

const textBytes = (s: string) => {
  const k = new ByteSink(16);
  k.text(s);
  return Buffer.from(k.bytes());
};
const strOut = (s: string) => {
  const k = new ByteSink(16);
  k.str(s);
  return fromUtf8(k.bytes());
};
const SAMPLES = ['plain', 'café', 'a\u00a0b', '€ 5', '\u2028', '😀 house', '𝄞𝄞', 'Küche 台所 🏠'];

describe('the compat output’s UTF-8 writer', () => {
  it('writes text as Node’s own UTF-8 encoder does, one-, two-, three- and four-byte characters alike', () => {
    for (const s of SAMPLES) expect(textBytes(s)).toEqual(Buffer.from(s, 'utf8'));
  });

  it('a lone surrogate in text becomes U+FFFD (as Node writes it); the characters around it are kept', () => {
    for (const s of ['a\ud800b', '\udc00', 'x\ud83d', '\ude00😀']) expect(textBytes(s)).toEqual(Buffer.from(s, 'utf8'));
  });

  it('writes strings as json.dumps(ensure_ascii=False): non-ASCII as it is, escapes where Python escapes, a lone surrogate as \\udXXX', () => {
    for (const s of SAMPLES) expect(strOut(s)).toBe(JSON.stringify(s));
    expect(strOut('say "hi"\\\n\t\u0001')).toBe('"say \\"hi\\"\\\\\\n\\t\\u0001"');
    expect(strOut('a\ud800b')).toBe('"a\\ud800b"');
    expect(strOut('\ude00😀')).toBe('"\\ude00😀"');
  });

  it('grows past its block for long non-ASCII text', () => {
    const long = '台所😀'.repeat(500);
    expect(textBytes(long)).toEqual(Buffer.from(long, 'utf8'));
    expect(strOut(long)).toBe(JSON.stringify(long));
  });
});
