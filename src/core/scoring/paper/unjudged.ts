import type { PaperReport } from './types.ts';

/**
 * What a model's figures say when the judge failed on some of its records (the CLI table and the
 * Score view say the same): how many, why, and that RV and the composite are withheld.
 */
export function unjudgedText(u: PaperReport['unjudged'], records: number): string {
  const why = Object.entries(u.why).sort((a, b) => b[1] - a[1]);
  const shown =
    why
      .slice(0, 3)
      .map(([e, n]) => `${n} × ${e}`)
      .join('; ') + (why.length > 3 ? `; and ${why.length - 3} other error(s)` : '');
  return (
    `INCOMPLETE: the judge could not judge ${u.count} of ${records} records (${shown}). Their RV is unknown, so RV and the CapNav composite are withheld;` +
    ' the range shown is every unjudged reason wrong … every one right.'
  );
}
