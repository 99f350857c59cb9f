import { useRef, type ReactNode } from 'react';
import { nOf } from '../../../../core/scoring/paper/thin.ts';
import { runCaption } from '../../../../core/scoring/paper/table2.ts';
import type { MetricName, MetricSet } from '../../../../core/scoring/paper/types.ts';
import { useCommand } from '../../../../ui/commands.ts';
import { count } from '../metricCell.tsx';
import { chartPng, chartSvgText } from './chartFile.ts';
import type { BarDatum } from './HBarChart.tsx';

/** A chart with its SVG and PNG downloads, the file captioned with the project, models, mode and seed. */
export function Exportable({ name, caption, children }: { name: string; caption: string; children: ReactNode }) {
  const scoringSaveFile = useCommand('score.saveFile');
  const box = useRef<HTMLDivElement>(null);
  const save = async (format: 'svg' | 'png') => {
    const svg = box.current?.querySelector('svg');
    if (!svg) return;
    const file = chartSvgText(svg, caption);
    if (format === 'svg') scoringSaveFile(`${name}.svg`, new TextEncoder().encode(file.text), 'image/svg+xml');
    else scoringSaveFile(`${name}.png`, await chartPng(file), 'image/png');
  };
  return (
    <div className="exportable" ref={box}>
      {children}
      <span className="chart-export">
        <button className="small secondary" data-testid={`${name}-svg`} onClick={() => void save('svg')}>
          SVG
        </button>
        <button className="small secondary" data-testid={`${name}-png`} onClick={() => void save('png')}>
          PNG
        </button>
      </span>
    </div>
  );
}

/** The caption an exported chart carries (the same as Table 2's). */
export const chartCaption = runCaption;

/** A metric as a bar: its value, interval and n; withheld (with its range) where the judge could not judge; "no records" without a set. */
export function metricBar(m: MetricSet | undefined, k: MetricName): BarDatum {
  if (!m) return { v: null, text: 'no records' };
  const range = k === 'rv' || k === 'capnav' ? m.incomplete?.[k] : undefined;
  if (m[k] === null && range !== undefined)
    return { v: null, text: `withheld${range ? ` (${range[0].toFixed(1)}…${range[1].toFixed(1)})` : ''} · ${count(m.n.unjudged)} not judged` };
  return { v: m[k], ci: m.ci?.[k] ?? null, text: `${m[k] === null ? '–' : m[k]!.toFixed(1)} · n ${count(nOf(m, k))}` };
}
