import { nOf } from '../../core/scoring/paper/thin.ts';
import type { MetricName, MetricSet } from '../../core/scoring/paper/types.ts';

export const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));
export const count = (n: number) => n.toLocaleString('en-US');


/** A component with its interval and its n, never a bare number: "74.92 [70.1, 79.3] n 1,200". */
export function MetricCell({ m, k, strong, thin }: { m: MetricSet; k: MetricName; strong?: boolean; thin?: boolean }) {
  const ci = m.ci?.[k];
  const n = nOf(m, k);
  return (
    <>
      <span className="v">{strong ? <strong>{fmt(m[k])}</strong> : fmt(m[k])}</span>
      {ci && <span className="ci"> [{ci[0].toFixed(1)}, {ci[1].toFixed(1)}]</span>}
      <span className={`n${thin ? ' thin' : ''}`} title={`${k.toUpperCase()} rests on ${count(n)} record${n === 1 ? '' : 's'}`}>n {count(n)}</span>
    </>
  );
}
