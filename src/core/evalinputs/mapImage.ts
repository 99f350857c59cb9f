/**
 * The map's picture from its heights (RGBA, rows from the top): surfaces shaded by their height
 * above the floor (the floor light, what stands on it darker the higher it reaches, walls darkest),
 * nothing left white; then each node's marker, a red disc with a dark rim, and its
 * number beside it.
 */

export const MARKER_RGB = [220, 20, 20] as const;
const RIM_RGB = [40, 0, 0] as const;
const EMPTY_RGB = [255, 255, 255] as const;
const MARKER_RADIUS = 4;

export interface MapSurface {
  width: number;
  height: number;
  /** World height of the top of what is seen from above at each pixel; NaN where there is nothing. */
  heightY: Float32Array;
}

export interface Marker {
  col: number;
  row: number;
  label: string;
}

/** Grey from the floor's light (ground level) to dark at the slice height; `floorY` and `sliceY` are world heights. */
export function shadeMap(s: MapSurface, floorY: number, sliceY: number): Uint8Array {
  const rgba = new Uint8Array(s.width * s.height * 4);
  const span = Math.max(0.1, sliceY - floorY);
  for (let i = 0; i < s.width * s.height; i++) {
    const y = s.heightY[i]!;
    let rgb: readonly number[] = EMPTY_RGB;
    if (!Number.isNaN(y)) {
      // Below the floor (a lower storey seen down the stairwell) is darker still.
      const up = Math.min(1, Math.max(-1, (y - floorY) / span));
      const g = Math.round(up >= 0 ? 215 - 175 * up : 215 + 100 * up);
      rgb = [g, g, Math.min(255, g + 12)];
    }
    rgba.set([rgb[0]!, rgb[1]!, rgb[2]!, 255], i * 4);
  }
  return rgba;
}

/** The markers drawn in place: every label first, then every disc over them, so a node's own pixel is always its marker's colour. */
export function drawMarkers(rgba: Uint8Array, width: number, height: number, markers: readonly Marker[]): void {
  const put = (x: number, y: number, rgb: readonly number[]) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    rgba.set([rgb[0]!, rgb[1]!, rgb[2]!, 255], (y * width + x) * 4);
  };
  for (const m of markers) drawLabel(put, m.col + MARKER_RADIUS + 2, m.row - 5, m.label);
  for (const m of markers) {
    const r = MARKER_RADIUS;
    for (let dy = -r - 1; dy <= r + 1; dy++)
      for (let dx = -r - 1; dx <= r + 1; dx++) {
        const d = Math.hypot(dx, dy);
        if (d <= r) put(m.col + dx, m.row + dy, MARKER_RGB);
        else if (d <= r + 1) put(m.col + dx, m.row + dy, RIM_RGB);
      }
  }
}

/** 3 × 5 digits, row by row. */
const DIGITS = [
  '111101101101111',
  '010110010010111',
  '111001111100111',
  '111001111001111',
  '101101111001001',
  '111100111001111',
  '111100111101111',
  '111001001001001',
  '111101111101111',
  '111101111001111',
];
const SCALE = 2;

/** Dark digits on a white box, each font pixel SCALE × SCALE, top-left at (x, y). */
function drawLabel(put: (x: number, y: number, rgb: readonly number[]) => void, x: number, y: number, label: string): void {
  const glyphs = [...label].map((c) => DIGITS[Number(c)]).filter((g): g is string => g !== undefined);
  const w = (glyphs.length * 4 - 1) * SCALE + 2,
    h = 5 * SCALE + 2;
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) put(x + i, y + j, EMPTY_RGB);
  glyphs.forEach((g, k) => {
    for (let p = 0; p < 15; p++) {
      if (g[p] !== '1') continue;
      const gx = x + 1 + (k * 4 + (p % 3)) * SCALE,
        gy = y + 1 + Math.floor(p / 3) * SCALE;
      for (let dy = 0; dy < SCALE; dy++) for (let dx = 0; dx < SCALE; dx++) put(gx + dx, gy + dy, [0, 0, 0]);
    }
  });
}
