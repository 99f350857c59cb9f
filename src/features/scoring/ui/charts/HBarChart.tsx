import { AxisBottom } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';

/** One bar: its value (null: undefined, drawn as "–"), an interval, and the text written after it (value and n). */
export interface BarDatum {
  v: number | null;
  ci?: [number, number] | null;
  text: string;
}
export interface Series {
  name: string;
  colour: string;
}

interface Props {
  title: string;
  rows: string[];
  series: Series[];
  datum: (row: string, s: Series) => BarDatum;
  /** The axis' end (100 for percentages); default: the largest value. */
  max?: number;
  width: number;
  testId?: string;
  /** Names rows on the left (px). */
  labelWidth?: number;
}

const BAR = 13,
  GAP = 3,
  GROUP_GAP = 8,
  TITLE = 22,
  AXIS = 22,
  TEXT = 116,
  LEGEND_LINE = 14;

/** Where each series' swatch and name go: left to right, wrapping at the chart's width (y: from the top of the legend). */
function legendLayout(series: readonly Series[], width: number): { s: Series; x: number; y: number }[] {
  let x = 0,
    y = 0;
  return series.map((s) => {
    const w = 14 + s.name.length * 6 + 12;
    if (x > 0 && x + w > width) {
      x = 0;
      y += LEGEND_LINE;
    }
    const at = { s, x, y };
    x += w;
    return at;
  });
}

/**
 * Horizontal bars, one group per row and one bar per series (model), each bar labelled with its
 * figure and n so the chart reads without a table; an interval, when there is one, is a whisker.
 * SVG (visx scales and shapes): the numbers stay text a test — or a screen reader — can read.
 */
export function HBarChart({ title, rows, series, datum, max, width, testId, labelWidth = 92 }: Props) {
  const groupH = series.length * (BAR + GAP) - GAP;
  // With more than one series, a legend under the title: an exported chart names its colours.
  const legend = series.length > 1 ? legendLayout(series, width) : [];
  const plotTop = TITLE + (legend.length ? legend.at(-1)!.y + LEGEND_LINE : 0);
  const height = plotTop + rows.length * (groupH + GROUP_GAP) + AXIS;
  const plotW = Math.max(60, width - labelWidth - TEXT - 8);
  const values = rows.flatMap((r) => series.map((s) => datum(r, s))).flatMap((d) => [d.v ?? 0, d.ci?.[1] ?? 0]);
  const x = scaleLinear<number>({ domain: [0, max ?? Math.max(1, ...values)], range: [0, plotW], clamp: true });
  const y = scaleBand<string>({ domain: rows, range: [plotTop, height - AXIS], paddingInner: GROUP_GAP / (groupH + GROUP_GAP) });
  return (
    <svg width={width} height={height} className="chart" data-testid={testId} role="img" aria-label={title}>
      <text x={0} y={13} className="chart-title">
        {title}
      </text>
      {legend.length > 0 && (
        <g data-testid="chart-key" transform={`translate(0, ${TITLE})`}>
          {legend.map(({ s, x, y }) => (
            <g key={s.name} transform={`translate(${x}, ${y})`}>
              <rect width={10} height={10} y={0} rx={2} fill={s.colour} />
              <text x={14} y={9} className="bar-text">
                {s.name}
              </text>
            </g>
          ))}
        </g>
      )}
      <Group left={labelWidth}>
        {rows.map((r) => (
          <g key={r} data-row={r}>
            <text x={-6} y={(y(r) ?? 0) + groupH / 2 + 4} textAnchor="end" className="chart-label">
              {r}
            </text>
            {series.map((s, k) => {
              const d = datum(r, s);
              const top = (y(r) ?? 0) + k * (BAR + GAP);
              const w = d.v === null ? 0 : x(d.v);
              return (
                <g key={s.name} data-series={s.name} data-value={d.v ?? ''}>
                  <title>{`${s.name} · ${r}: ${d.text}${d.ci ? ` (interval ${d.ci[0].toFixed(1)}–${d.ci[1].toFixed(1)})` : ''}`}</title>
                  <Bar x={0} y={top} width={w} height={BAR} fill={s.colour} rx={2} />
                  {d.ci && <line x1={x(d.ci[0])} x2={x(d.ci[1])} y1={top + BAR / 2} y2={top + BAR / 2} className="whisker" />}
                  {d.ci && [d.ci[0], d.ci[1]].map((c, i) => <line key={i} x1={x(c)} x2={x(c)} y1={top + 2} y2={top + BAR - 2} className="whisker" />)}
                  <text x={Math.max(w, d.ci ? x(d.ci[1]) : 0) + 4} y={top + BAR - 3} className="bar-text">
                    {d.text}
                  </text>
                </g>
              );
            })}
          </g>
        ))}
        <AxisBottom
          top={height - AXIS}
          scale={x}
          numTicks={4}
          tickLength={3}
          tickLabelProps={{ fontSize: 10, fill: '#65707d', textAnchor: 'middle' }}
          stroke="#d9dee4"
          tickStroke="#d9dee4"
        />
      </Group>
    </svg>
  );
}
