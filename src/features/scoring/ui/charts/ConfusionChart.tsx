import { Group } from '@visx/group';
import { scaleLinear } from '@visx/scale';

interface Props {
  model: string;
  colour: string;
  c: { tp: number; fp: number; tn: number; fn: number };
}

const CELL = 74,
  LEFT = 112,
  TOP = 40;

/**
 * The feasibility confusion matrix as a 2×2 heat map: rows what the model said, columns the
 * ground truth, each cell shaded by its share of the records and labelled with its count and share.
 * Correct cells (TP, TN) are in the model's colour, errors (FP, FN) in red.
 */
export function ConfusionChart({ model, colour, c }: Props) {
  const total = c.tp + c.fp + c.tn + c.fn;
  const shade = scaleLinear<number>({ domain: [0, Math.max(1, total)], range: [0.06, 0.9] });
  const cells = [
    { key: 'tp', row: 0, col: 0, n: c.tp, ok: true },
    { key: 'fp', row: 0, col: 1, n: c.fp, ok: false },
    { key: 'fn', row: 1, col: 0, n: c.fn, ok: false },
    { key: 'tn', row: 1, col: 1, n: c.tn, ok: true },
  ];
  return (
    <svg
      width={LEFT + 2 * CELL + 8}
      height={TOP + 2 * CELL + 6}
      className="chart confusion-chart"
      data-testid="confusion"
      data-model={model}
      role="img"
      aria-label={`Confusion of ${model}`}
    >
      <text x={0} y={13} className="chart-title">
        Confusion · {model}
      </text>
      <text x={LEFT + CELL / 2} y={TOP - 6} textAnchor="middle" className="chart-label">
        GT feasible
      </text>
      <text x={LEFT + CELL * 1.5} y={TOP - 6} textAnchor="middle" className="chart-label">
        GT infeasible
      </text>
      <text x={LEFT - 6} y={TOP + CELL / 2 + 4} textAnchor="end" className="chart-label">
        said yes
      </text>
      <text x={LEFT - 6} y={TOP + CELL * 1.5 - 2} textAnchor="end" className="chart-label">
        said no /
      </text>
      <text x={LEFT - 6} y={TOP + CELL * 1.5 + 11} textAnchor="end" className="chart-label">
        unparseable
      </text>
      <Group left={LEFT} top={TOP}>
        {cells.map((x) => (
          <g key={x.key} transform={`translate(${x.col * CELL}, ${x.row * CELL})`}>
            <title>{`${x.key.toUpperCase()}: ${x.n} of ${total} records`}</title>
            <rect width={CELL - 2} height={CELL - 2} rx={3} fill={x.ok ? colour : '#c8322b'} fillOpacity={shade(x.n)} />
            <text x={(CELL - 2) / 2} y={CELL / 2 - 6} textAnchor="middle" className="cell-kind">
              {x.key.toUpperCase()}
            </text>
            <text x={(CELL - 2) / 2} y={CELL / 2 + 12} textAnchor="middle" className="cell-n" data-cell={x.key}>
              {x.n}
            </text>
            <text x={(CELL - 2) / 2} y={CELL / 2 + 26} textAnchor="middle" className="cell-share">
              {total ? `${((100 * x.n) / total).toFixed(0)} %` : '–'}
            </text>
          </g>
        ))}
      </Group>
    </svg>
  );
}
