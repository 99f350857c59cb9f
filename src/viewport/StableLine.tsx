import { Line } from '@react-three/drei';
import { useMemo, type ComponentProps } from 'react';

type LineProps = ComponentProps<typeof Line>;

/** The points as text, so two renders with the same coordinates are seen as the same line. */
function pointsKey(points: LineProps['points']): string {
  let out = '';
  for (const p of points) {
    if (typeof p === 'number') out += `${p},`;
    else if (Array.isArray(p)) out += `${p.join(',')};`;
    else {
      const v = p as { x: number; y: number; z?: number; w?: number };
      out += `${v.x},${v.y},${v.z ?? ''},${v.w ?? ''};`;
    }
  }
  return out;
}

/**
 * drei's `Line`, given the same points array while the coordinates stay the same. drei's Line
 * disposes its material whenever its points array changes (its clean-up runs on every new
 * geometry), and a disposed material gives up its shader program: with every line drawn from a
 * fresh `[a, b]` on each render, every label decision recompiled the line shader two or three
 * times (50-100 ms each with a software renderer) — most of a label's time on screen.
 */
export function StableLine(props: LineProps) {
  const key = pointsKey(props.points);
  // The key stands for the coordinates: the array is kept while they stay the same.
  const points = useMemo(() => props.points, [key]);
  return <Line {...props} points={points} />;
}
