import type { Table2, Table2Cell } from '../core/scoring/paper/table2.ts';
import { csvCell, csvTable } from './csv.ts';

/**
 * Table 2 as files: CSV (numbers to two decimals as numbers; an empty cell where a value is
 * undefined; `withheld (low…high)` where the judge failed) and a LaTeX tabular that compiles as
 * it is (booktabs), the models' names escaped, a withheld value as a dagger with a note.
 */
const two = (x: number) => Math.round(x * 100) / 100;

export function table2Csv(t: Table2, title: string): string {
  const text = (c: Table2Cell) =>
    c === null ? null : typeof c === 'number' ? two(c) : `withheld${c.withheld ? ` (${c.withheld[0].toFixed(2)}…${c.withheld[1].toFixed(2)})` : ''}`;
  return `${csvCell(title)}\r\n${csvTable(
    t.header,
    t.rows.map((r) => [r.model, ...r.cells.map(text)]),
  )}`;
}

const LATEX_SPECIAL = /[\\{}$&#^_%~]/g;
const LATEX_ESCAPE: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  '^': '\\textasciicircum{}',
  _: '\\_',
  '%': '\\%',
  '~': '\\textasciitilde{}',
};
export const latexText = (s: string): string => s.replace(LATEX_SPECIAL, (c) => LATEX_ESCAPE[c]!);

export function table2Latex(t: Table2, title: string): string {
  const withheld = t.rows.some((r) => r.cells.some((c) => c !== null && typeof c === 'object'));
  const cellText = (c: Table2Cell) => (c === null ? '--' : typeof c === 'number' ? c.toFixed(2) : '$\\dagger$');
  const lines = [
    `% ${latexText(title)}`,
    '% needs \\usepackage{booktabs}',
    `\\begin{tabular}{l${'r'.repeat(t.header.length - 1)}}`,
    '\\toprule',
    `${t.header.map(latexText).join(' & ')} \\\\`,
    '\\midrule',
    ...t.rows.map((r) => `${latexText(r.model)} & ${r.cells.map(cellText).join(' & ')} \\\\`),
    '\\bottomrule',
    '\\end{tabular}',
  ];
  if (withheld) lines.push('% $\\dagger$: withheld, the judge could not judge some records (their RV is unknown); see scored_summary.json for the range');
  return lines.join('\n') + '\n';
}
