import { describe, expect, it } from 'vitest';
import { pyDumps, pyDumpValue } from '../../../../src/core/scoring/compat/pyDumps.ts';
import { normaliseText } from '../../../../src/core/scoring/compat/normalise.ts';
import { pyJsonLoads, pyJsonLoadsExact } from '../../../../src/core/scoring/compat/pyJson.ts';
import { pyCompare, pyFloatRepr, pyStr, pyStrip } from '../../../../src/core/scoring/compat/pyText.ts';

/*
 * The released scorer is Python; wherever JavaScript's behaviour differs, compat mode must behave
 * like Python. Every expected value here was produced by CPython 3.11 and pasted as a literal.
 */
const PY = {
  reprs: [
    '0.1',
    '0.3333333333333333',
    '0.6666666666666666',
    '1e+16',
    '1000000000000000.0',
    '9999999999999998.0',
    '123456789.0',
    '0.0001',
    '1e-05',
    '0.00012',
    '0.5',
    '1e+22',
    '1.5e+300',
    '5e-324',
    '100.0',
    '2.5',
    '1.7976931348623157e+308',
    '0.30000000000000004',
    '1.2345678901234568e+16',
    '1e-07',
    '3.14e-10',
    '777.3333333333331',
    '10928588.983213553',
    '1.4186613525849614e+134',
    '-7.571968556055867e-74',
    '-1.4074705188261364e+113',
    '-3.3339745473042614e-121',
    '-1.2342180766211395e-271',
    '-5.126864004244935e+111',
    '-2.1520217579844227e+32',
    '0.1399601630397701',
    '1.01853664031722e-244',
    '2.9704598186234577e-115',
    '3.0534183338726823e+150',
    '-2.3027782228163463e+146',
    '3.56409621163656e+161',
    '6.352929017207453e-183',
    '0.3146575865605324',
    '-1.2761724801771812e-23',
    '2.0868668176225336e+195',
    '3.66898827745704e-84',
    '-1.389122273370197e+145',
    '1.7548715433165102e+172',
    '-1039514241563211.8',
    '5.7804021771411506e-220',
    '-2.8497478716107576e-163',
    '3.490691392124745e+240',
    '1.3282314387596086e-145',
    '-2.9317061175715426e+274',
    '4.1124768973349897e-302',
    '-2.5983853818656714e+29',
    '-2.5839922981649337e+259',
    '3.7615508677292285e-104',
    '2.1435728770450893e-103',
    '6.3583676891104784e+78',
    '2.0062829023357212e-63',
    '-6.792475937705741e+155',
    '-1.1878910286585398e-153',
    '1.1477511623364303e-84',
    '-6.384685499984821e+269',
    '6.725524671613862e-66',
    '-3.3367034274052276e+265',
    '3.877694405952627e+164',
    '4.653705104647486e-282',
    '4.570939674669643e+203',
    '-2.4421404212946136e+229',
    '2.26797932753915e+17',
    '1.7861671810658467e+101',
    '-2.602349164887994e+83',
    '-1.8724773489262678e-202',
    '-2.535696537529436e-190',
    '-1.3710624349377491e-52',
    '3.013890678074884e-227',
    '1.6848352620292958e+130',
    '2.8283307810991783e+69',
    '-1.8226019816232835e-66',
    '7.721876539108463e-81',
    '5.2524808150207456e+274',
    '1.7032929977986795e-91',
    '88637315.64805965',
    '-2.3695306911835436e+233',
    '-8.801629211661505e+245',
    '7.497950222912732e+18',
    '404294081.16688967',
    '787.7383039804342',
    '3.763654126116546e+17',
    '9.078386819528438e-10',
    '70775825665.08612',
    '0.009551798995911664',
    '0.011902055707377502',
    '929655.3195975211',
    '344.38181305301197',
    '0.8927110919706659',
    '7.756030146989954e-06',
    '5897633712619398.0',
    '7.972266775913328e+18',
    '29586.380747431194',
    '9.458001850421838e-07',
    '20848339.304879703',
    '6.108275380926243e-05',
    '33995952662584.46',
    '5.451440370982389',
    '6.8596583095788946',
    '1.7747777550498855e-07',
    '626805768526107.4',
    '6891745.873488751',
    '1.6152946442461625e-08',
    '8095823218.449283',
    '5335.307413608343',
    '31826482991401.785',
    '5.939602206932969e+17',
    '250208858070.26248',
    '4.217572819115893e-08',
    '979050620765.0106',
    '327212.1996927579',
    '0.0033418529360316153',
    '130571827153119.98',
    '5.6404761187582133e-05',
    '6.303992934263946e+16',
    '0.0004138224132853047',
    '4.3455519060043716e-05',
    '5877.061817596774',
  ],
  strs: [
    ['1', '1'],
    ['1.0', '1.0'],
    ['-0.0', '-0.0'],
    ['1e400', 'inf'],
    ['NaN', 'nan'],
    ['-Infinity', '-inf'],
    ['true', 'True'],
    ['null', 'None'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
    ['1E5', '100000.0'],
    ['0.5e1', '5.0'],
    ['-12', '-12'],
    ['[1, "a", true, null, 2.5, [], {}]', "[1, 'a', True, None, 2.5, [], {}]"],
    ['{"k": "v", "n": [1]}', "{'k': 'v', 'n': [1]}"],
    ['"it\'s"', "it's"],
    ['["it\'s", "say \\"hi\\""]', '["it\'s", \'say "hi"\']'],
    ['["both \' and \\""]', "['both \\' and \"']"],
    ['["tab\\tnew\\nline\\u0001\\u007f\\r"]', "['tab\\tnew\\nline\\x01\\x7f\\r']"],
    ['["\\u00e9\\u00a0\\u2028\\ud83d\\ude00\\ud800\\u00ad"]', "['\u00e9\\xa0\\u2028\ud83d\ude00\\ud800\\xad']"],
    ['["\\\\"]', "['\\\\']"],
    ['{"a":1,"b":2,"a":3}', "{'a': 3, 'b': 2}"],
    [' [ ] ', '[]'],
    ['{"__proto__": 1}', "{'__proto__': 1}"],
    ['"\\/"', '/'],
  ],
  bad: [
    ['\ufeff{}', 'Unexpected UTF-8 BOM (decode using utf-8-sig)'],
    ['01', 'Extra data'],
    ['1.', 'Extra data'],
    ['[1,]', 'Expecting value'],
    ['{"a":1,}', 'Expecting property name enclosed in double quotes'],
    ["'a'", 'Expecting value'],
    ['"\\x"', 'Invalid \\escape'],
    ['"a\tb"', 'Invalid control character at'],
    ['', 'Expecting value'],
    [' ', 'Expecting value'],
    ['nul', 'Expecting value'],
    ['[1] x', 'Extra data'],
    ['-', 'Expecting value'],
    ['1e', 'Extra data'],
    ['{"a" 1}', "Expecting ':' delimiter"],
    ['[1 2]', "Expecting ',' delimiter"],
    ['{1: 2}', 'Expecting property name enclosed in double quotes'],
    ['"\\u12g4"', 'Invalid \\uXXXX escape'],
    ['"abc', 'Unterminated string starting at'],
  ],
  strips: [
    ['  a b  ', 'a b'],
    ['\u001c\u001dx\u001e\u001f', 'x'],
    ['\u0085yes\u0085', 'yes'],
    ['\ufeffyes\ufeff', '\ufeffyes\ufeff'],
    ['\u3000(a)\u2003', '(a)'],
    ['\t\n\u000b\fz\r ', 'z'],
    ['', ''],
  ],
  /** `norm_text(s)`: lower(), strip(), string.punctuation deleted, runs of \\s made one space. */
  norms: [
    ['a\u0301b', 'a\u0301b'],
    ['kitchen_2', 'kitchen2'],
    ['\u00e9t\u00e9', '\u00e9t\u00e9'],
    ['\u0663\u0664', '\u0663\u0664'],
    ['x\u00b2', 'x\u00b2'],
    ['\u2160', '\u2170'],
    ['a-b', 'ab'],
    ['a\u2014b', 'a\u2014b'],
    ['a\u00a0b', 'a b'],
    ['  Hall -  ', 'hall '],
    ['\u03a3\u0391\u03a3', '\u03c3\u03b1\u03c2'],
    ['\u0130stanbul', 'i\u0307stanbul'],
    ['Stra\u00dfe', 'stra\u00dfe'],
    ['\u001c x \u0085', 'x'],
    ['\ufb01le', '\ufb01le'],
    ['\ufeffyes', '\ufeffyes'],
    ['node_12', 'node12'],
    ['Stair\u2019s  landing!', 'stair\u2019s landing'],
  ],
  sortedPaths: ['A.json', 'a-c/x.json', 'a.json', 'a.jsonx', 'a/B.json', 'a/b.json', 'b/a.json', 'z.json', '\u00e9.json', '\uff01.json', '\ud83d\ude00.json'],
} as const;

describe('Python semantics the compat scorer depends on', () => {
  it('prints floats as repr() does: 1e-05, 1e+16, 1000000000000000.0, shortest round-trip digits', () => {
    for (const text of PY.reprs) expect(pyFloatRepr(Number(text))).toBe(text);
    expect(pyFloatRepr(-0)).toBe('-0.0');
    expect([pyFloatRepr(NaN), pyFloatRepr(Infinity), pyFloatRepr(-Infinity)]).toEqual(['nan', 'inf', '-inf']);
  });

  it('reads JSON as json.loads does and str()s the values as Python does (ints and floats apart)', () => {
    for (const [text, str] of PY.strs) {
      const r = pyJsonLoads(text);
      expect(r.ok, text).toBe(true);
      if (r.ok) expect(pyStr(r.value), text).toBe(str);
    }
  });

  it('reads the same through JSON.parse as through its own parser: ints, floats, key order and depth as Python has them', () => {
    const texts = [
      ...PY.strs.map(([text]) => text),
      '{"scene": "S", "time_sec": 1.5, "result": [{"path": ["a", null, true, 2.25]}]}',
      '[2.0, 1e2, 1.0000000000000001]',
      '{"b": 1, "2": 2, "1": 3}',
      '{"a": 12345678901234567, "b": -0, "c": -0.0}',
      `${'['.repeat(999)}${']'.repeat(999)}`,
      '{"__proto__": {"x": 0.5}}',
    ];
    for (const text of texts) {
      const fast = pyJsonLoads(text),
        exact = pyJsonLoadsExact(text);
      expect(fast.ok, text.slice(0, 40)).toBe(exact.ok);
      if (fast.ok && exact.ok) {
        expect(pyStr(fast.value), text.slice(0, 40)).toBe(pyStr(exact.value));
        expect(pyDumpValue(fast.value), text.slice(0, 40)).toBe(pyDumpValue(exact.value));
      }
    }
    expect(pyJsonLoads(`${'['.repeat(1001)}${']'.repeat(1001)}`)).toMatchObject({ ok: false, message: expect.stringContaining('Nested deeper than 1000') });
  });

  it('rejects what json.loads rejects, a byte-order mark included, with the same message', () => {
    for (const [text, message] of PY.bad) {
      const r = pyJsonLoads(text);
      expect(r.ok, JSON.stringify(text)).toBe(false);
      if (!r.ok) expect(r.message, JSON.stringify(text)).toBe(message);
    }
  });

  it('strips the whitespace str.strip() strips: U+001C–U+001F and U+0085 yes, U+FEFF no', () => {
    for (const [s, stripped] of PY.strips) expect(pyStrip(s), JSON.stringify(s)).toBe(stripped);
  });

  it("normalises as norm_text does: only ASCII punctuation goes, the underscore with it; Python's lower() and whitespace", () => {
    for (const [s, norm] of PY.norms) expect(normaliseText(s), JSON.stringify(s)).toBe(norm);
  });

  it('orders paths as sorted() orders str: by code point, so an astral character sorts after U+FF01', () => {
    expect([...PY.sortedPaths].reverse().sort(pyCompare)).toEqual(PY.sortedPaths);
  });
});

describe('writing values as json.dumps writes them', () => {
  it('escapes only quotes, backslashes and control characters with ensure_ascii=False, everything else with the default', () => {
    const text = 'caf\u00e9 \u{1F600} "A" \\ / \x01\x7f\t';
    expect(pyDumps(text, { ensureAscii: false })).toBe('"caf\u00e9 \u{1F600} \\"A\\" \\\\ / \\u0001\x7f\\t"');
    expect(pyDumps(text)).toBe('"caf\\u00e9 \\ud83d\\ude00 \\"A\\" \\\\ / \\u0001\\u007f\\t"');
  });

  it('writes Python values as they were read: ints as ints, floats as repr(), dicts in their order', () => {
    const r = pyJsonLoads('{"b": [1, 1.0, 1e2, -0.0, 12345678901234567890, NaN, Infinity], "a": {"2": 1, "1": null}}');
    expect(r.ok && pyDumpValue(r.value)).toBe('{"b": [1, 1.0, 100.0, -0.0, 12345678901234567890, NaN, Infinity], "a": {"2": 1, "1": null}}');
  });

  it('refuses to print a fraction for a field not declared a float, rather than write what Python would not', () => {
    expect(() => pyDumps({ n: 0.5 })).toThrow(/not an integer/);
  });
});
