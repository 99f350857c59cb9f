import { nOf } from '../../../core/scoring/paper/thin.ts';
import type { MetricName, MetricSet } from '../../../core/scoring/paper/types.ts';

export const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));
export const count = (n: number) => n.toLocaleString('en-US');

/** A component with its interval and its n, never a bare number: "74.92 [70.1, 79.3] n 1,200". */
export function MetricCell({ m, k, strong, thin }: { m: MetricSet; k: MetricName; strong?: boolean; thin?: boolean }) {
  const ci = m.ci?.[k];
  const n = nOf(m, k);
  const range = k === 'rv' || k === 'capnav' ? m.incomplete?.[k] : undefined;
  if (m[k] === null && range !== undefined) {
    // The judge failed on some records: withheld, never a number averaged over the rest.
    const why = `The judge could not judge ${count(m.n.unjudged)} record${m.n.unjudged === 1 ? '' : 's'}: their RV is unknown, so this figure is withheld. Range: every unjudged reason wrong … every one right.`;
    return (
      <span className="withheld warn" data-testid="withheld" title={why}>
        withheld
        {range && (
          <span className="range">
            {' '}
            ({range[0].toFixed(2)}…{range[1].toFixed(2)})
          </span>
        )}{' '}
        <span className="n">{count(m.n.unjudged)} not judged</span>
      </span>
    );
  }
  return (
    <>
      <span className="v">{strong ? <strong>{fmt(m[k])}</strong> : fmt(m[k])}</span>
      {ci && (
        <span className="ci">
          {' '}
          [{ci[0].toFixed(1)}, {ci[1].toFixed(1)}]
        </span>
      )}
      <span className={`n${thin ? ' thin' : ''}`} title={`${k.toUpperCase()} rests on ${count(n)} record${n === 1 ? '' : 's'}`}>
        n {count(n)}
      </span>
    </>
  );
}
