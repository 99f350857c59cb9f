/**
 * The top-down map's frame: an orthographic view straight down the world's up axis (Y), world +X to
 * the right of the image and world +Z down it (so −Z is up), `pxPerM` pixels a metre. Pixel
 * (col, row) covers world x from x0 + col / pxPerM and z from z0 + row / pxPerM, one pixel on.
 */
export interface MapFrame {
  x0: number;
  z0: number;
  pxPerM: number;
  width: number;
  height: number;
}

export interface MapBounds {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

/** 5 cm a pixel, the longer side at most this many pixels (a larger scan gets fewer pixels a metre), half a metre around. */
export const MAP_PX_PER_M = 20;
export const MAP_MAX_SIDE = 1024;
const MARGIN_M = 0.5;

/** The frame that shows `bounds` (world x and z, metres) with a margin. */
export function mapFrameOf(bounds: MapBounds, pxPerM = MAP_PX_PER_M, maxSide = MAP_MAX_SIDE): MapFrame {
  const x0 = bounds.minX - MARGIN_M,
    z0 = bounds.minZ - MARGIN_M;
  const spanX = bounds.maxX + MARGIN_M - x0,
    spanZ = bounds.maxZ + MARGIN_M - z0;
  const ppm = Math.min(pxPerM, maxSide / Math.max(spanX, spanZ));
  // Rounding (200 m × 5.12 px/m is 1024.0000000000001) must not add a pixel.
  const px = (span: number) => Math.max(1, Math.ceil(span * ppm - 1e-9));
  return { x0, z0, pxPerM: ppm, width: px(spanX), height: px(spanZ) };
}

/** Where a world point falls on the map, in pixels (continuous: the pixel holding it is the floor of each). */
export const toMapPixel = (m: MapFrame, x: number, z: number): { u: number; v: number } => ({ u: (x - m.x0) * m.pxPerM, v: (z - m.z0) * m.pxPerM });

/** The pixel holding a world point, [col, row]. */
export function mapPixelOf(m: MapFrame, x: number, z: number): [number, number] {
  const { u, v } = toMapPixel(m, x, z);
  return [Math.floor(u), Math.floor(v)];
}

/** The world x, z at a pixel's centre (where its ray is cast). */
export const mapPixelCentre = (m: MapFrame, col: number, row: number): { x: number; z: number } => ({
  x: m.x0 + (col + 0.5) / m.pxPerM,
  z: m.z0 + (row + 0.5) / m.pxPerM,
});
