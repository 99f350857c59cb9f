/**
 * Which of the file's axes is up, read from the scan itself.
 *
 * A building's level surfaces — floors, ceilings, stair treads, table and counter tops — lie across
 * its up axis; its walls stand along the other two, split between them. So the area of triangles
 * whose normal lies within `ALIGNED_DEG` of an axis (either sign: reconstructions wind faces either
 * way) is largest across the up axis: in a room 4 × 4 m with 2.5 m walls, 32 m² of floor and ceiling
 * against 20 m² of wall on each horizontal axis, and still 16 m² against 20 m² split 10/10 when the
 * scan has no ceiling. Y (glTF, HM3D) and Z (Matterport, most PLY and OBJ scans) are the frames
 * scans come in, so those two are compared. Walls are not split evenly in every house (the bundled
 * sample house: 43 % of its area level across Y, 30 % across Z), so the reading is trusted over the
 * file type's convention when one axis holds `CLEAR_RATIO` times the other's level area, or
 * `LEANING_RATIO` times it and the scan is also lower along it than along the other (houses are
 * wider than tall), and at least `MIN_SHARE` of the whole lies level across it (a noisy fragment
 * with almost nothing level says nothing).
 */
export interface LevelAreas {
  x: number;
  y: number;
  z: number;
  total: number;
  extent: { y: number; z: number };
}

export interface UpAxisReading {
  axis: 'y' | 'z';
  /** Whether the scan says so clearly (else the file type's convention stands). */
  confident: boolean;
  /** Share of the scan's area lying level across Y and across Z. */
  shares: { y: number; z: number };
}

const ALIGNED_DEG = 10;
const ALIGNED_COS = Math.cos((ALIGNED_DEG * Math.PI) / 180);
export const CLEAR_RATIO = 2;
export const LEANING_RATIO = 1.25;
export const MIN_SHARE = 0.1;

/** Area of the triangles lying across each axis of the mesh's own frame (within ALIGNED_DEG), and in all. */
export function levelAreas(positions: ArrayLike<number>, index: ArrayLike<number> | null): LevelAreas {
  const triangles = index ? Math.floor(index.length / 3) : Math.floor(positions.length / 9);
  const out = { x: 0, y: 0, z: 0, total: 0, extent: { y: 0, z: 0 } };
  let y0 = Infinity,
    y1 = -Infinity,
    z0 = Infinity,
    z1 = -Infinity;
  for (let i = 0; i + 2 < positions.length; i += 3) {
    const y = positions[i + 1]!,
      z = positions[i + 2]!;
    if (!Number.isFinite(y) || !Number.isFinite(z)) continue;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  if (y1 >= y0) out.extent = { y: y1 - y0, z: z1 - z0 };
  for (let t = 0; t < triangles; t++) {
    const a = (index ? index[t * 3]! : t * 3) * 3,
      b = (index ? index[t * 3 + 1]! : t * 3 + 1) * 3,
      c = (index ? index[t * 3 + 2]! : t * 3 + 2) * 3;
    const ux = positions[b]! - positions[a]!,
      uy = positions[b + 1]! - positions[a + 1]!,
      uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!,
      vy = positions[c + 1]! - positions[a + 1]!,
      vz = positions[c + 2]! - positions[a + 2]!;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(len > 0) || !Number.isFinite(len)) continue;
    const area = len / 2,
      lim = ALIGNED_COS * len;
    out.total += area;
    if (Math.abs(nx) >= lim) out.x += area;
    else if (Math.abs(ny) >= lim) out.y += area;
    else if (Math.abs(nz) >= lim) out.z += area;
  }
  return out;
}

/** The up axis the level surfaces point to, and whether that is clear (see the module's note). */
export function readUpAxis(l: LevelAreas): UpAxisReading {
  const axis = l.z > l.y ? 'z' : 'y';
  const [more, less] = axis === 'z' ? [l.z, l.y] : [l.y, l.z];
  const share = (v: number) => (l.total > 0 ? v / l.total : 0);
  const other = axis === 'z' ? 'y' : 'z';
  const lower = l.extent[axis] <= l.extent[other];
  const confident = share(more) >= MIN_SHARE && (more >= CLEAR_RATIO * less || (more >= LEANING_RATIO * less && lower));
  return { axis, confident, shares: { y: share(l.y), z: share(l.z) } };
}

/** The hint shown when the scan's reading disagrees with the up axis it is drawn with: the axis it points to, in words. */
export function upAxisHint(reading: UpAxisReading, current: 'y' | 'z'): { axis: 'y' | 'z'; text: string } | null {
  if (!reading.confident || reading.axis === current) return null;
  const pct = (v: number) => `${Math.round(v * 100)} %`;
  const up = reading.axis.toUpperCase(),
    other = current.toUpperCase();
  return {
    axis: reading.axis,
    text: `This scan looks ${up} up: ${pct(reading.shares[reading.axis])} of its surface lies level across ${up}, ${pct(reading.shares[current])} across ${other}`,
  };
}
