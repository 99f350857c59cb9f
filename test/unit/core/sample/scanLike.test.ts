import { describe, expect, it } from 'vitest';
import { houseMesh, triangleCount, type TriangleSoup } from '../../../../src/core/sample/houseMesh.ts';
import { nodePosition, SAMPLE_HOUSE } from '../../../../src/core/sample/houseSpec.ts';
import { scanLikeHouse, SCAN_DENSITY_M, SCAN_VARIANTS } from '../../../../src/core/sample/scanLike/index.ts';
import { VALUE_NOISE_RMS, valueNoise } from '../../../../src/core/sample/scanLike/random.ts';

// The scan-like variants are the test input the drive and the suggestions are held to: they must be
// what they say — as dense, as noisy, as holed, as badly wound as asked, the same for the same seed —
// and change nothing a true answer rests on.

const area = (s: TriangleSoup, t: number) => {
  const p = s.positions,
    i = s.indices;
  const a = i[t * 3]! * 3,
    b = i[t * 3 + 1]! * 3,
    c = i[t * 3 + 2]! * 3;
  const ux = p[b]! - p[a]!,
    uy = p[b + 1]! - p[a + 1]!,
    uz = p[b + 2]! - p[a + 2]!;
  const vx = p[c]! - p[a]!,
    vy = p[c + 1]! - p[a + 1]!,
    vz = p[c + 2]! - p[a + 2]!;
  return {
    nx: uy * vz - uz * vy,
    ny: uz * vx - ux * vz,
    nz: ux * vy - uy * vx,
    get area() {
      return Math.hypot(this.nx, this.ny, this.nz) / 2;
    },
  };
};
const totalArea = (s: TriangleSoup) => {
  let n = 0;
  for (let t = 0; t < triangleCount(s); t++) n += area(s, t).area;
  return n;
};
const longestEdge = (s: TriangleSoup) => {
  let m = 0;
  const p = s.positions,
    i = s.indices;
  for (let k = 0; k < i.length; k += 3) {
    for (let e = 0; e < 3; e++) {
      const a = i[k + e]! * 3,
        b = i[k + ((e + 1) % 3)]! * 3;
      m = Math.max(m, Math.hypot(p[a]! - p[b]!, p[a + 1]! - p[b + 1]!, p[a + 2]! - p[b + 2]!));
    }
  }
  return m;
};

describe('the scan-like sample house', { timeout: 60_000 }, () => {
  const clean = houseMesh(SAMPLE_HOUSE);
  const dense = scanLikeHouse(SAMPLE_HOUSE, SCAN_VARIANTS.dense, 1).soup;

  it('is dense as a reconstruction: about a million triangles whose sides are at most 8 cm (inner corners jittered), the same surface', () => {
    expect(triangleCount(dense)).toBeGreaterThan(1_000_000);
    // Each end of a side moves by at most a fifth of a step along each of the two sides of the
    // triangle it was cut from: a side lengthens by at most 4 × 0.2 of a step.
    expect(longestEdge(dense)).toBeLessThanOrEqual(SCAN_DENSITY_M * 1.8);
    expect(totalArea(dense)).toBeCloseTo(totalArea(clean), 0);
  });

  it('is the same, byte for byte, for the same seed, and another scan for another seed', () => {
    const d = SCAN_VARIANTS.all;
    const a = scanLikeHouse(SAMPLE_HOUSE, { ...d, densityM: 0.2 }, 7).soup;
    const b = scanLikeHouse(SAMPLE_HOUSE, { ...d, densityM: 0.2 }, 7).soup;
    const c = scanLikeHouse(SAMPLE_HOUSE, { ...d, densityM: 0.2 }, 8).soup;
    expect(Buffer.from(a.positions.buffer).equals(Buffer.from(b.positions.buffer))).toBe(true);
    expect(Buffer.from(a.indices.buffer).equals(Buffer.from(b.indices.buffer))).toBe(true);
    expect(Buffer.from(a.positions.buffer).equals(Buffer.from(c.positions.buffer))).toBe(false);
  });

  it('moves vertices by the noise asked (2 mm), coherently: two copies of one position move alike, so the surface stays closed', () => {
    const noisy = scanLikeHouse(SAMPLE_HOUSE, SCAN_VARIANTS.noisy, 1).soup;
    // Same triangles, same vertex order: compare vertex by vertex with the dense scan.
    expect(noisy.positions.length).toBe(dense.positions.length);
    let sq = 0,
      n = 0;
    const moved = new Map<string, string>();
    let split = 0;
    for (let v = 0; v < dense.positions.length; v += 3) {
      const dx = noisy.positions[v]! - dense.positions[v]!,
        dz = noisy.positions[v + 2]! - dense.positions[v + 2]!;
      // Without the ±1 cm floor warp: the fine noise alone, sideways.
      sq += dx * dx + dz * dz;
      n += 2;
      const key = `${dense.positions[v]},${dense.positions[v + 1]},${dense.positions[v + 2]}`;
      const to = `${noisy.positions[v]},${noisy.positions[v + 1]},${noisy.positions[v + 2]}`;
      const seen = moved.get(key);
      if (seen === undefined) moved.set(key, to);
      else if (seen !== to) split++;
    }
    const rms = Math.sqrt(sq / n);
    expect(rms).toBeGreaterThan(0.0015);
    expect(rms).toBeLessThan(0.003);
    expect(split).toBe(0);
  });

  it('has holes over about 0.3 % of its area, none wider than 15 cm, and half its faces wound the other way', () => {
    const holed = scanLikeHouse(SAMPLE_HOUSE, SCAN_VARIANTS.holed, 1);
    const lost = 1 - totalArea(holed.soup) / totalArea(dense);
    expect(lost).toBeGreaterThan(0.002);
    expect(lost).toBeLessThan(0.005);
    const wound = scanLikeHouse(SAMPLE_HOUSE, SCAN_VARIANTS.wound, 1);
    expect(wound.report.flipped / triangleCount(wound.soup)).toBeCloseTo(0.5, 2);
    // The winding that was flipped is really the other way: facing up and down areas even out.
    let up = 0,
      down = 0;
    for (let t = 0; t < triangleCount(wound.soup); t++) {
      const s = area(wound.soup, t);
      if (s.ny > 0) up += s.ny;
      else down -= s.ny;
    }
    expect(up / (up + down)).toBeCloseTo(0.5, 1);
  });

  it('is cluttered without touching what an edge is judged by: a table in a corner of rooms, rugs, nothing within a metre of a node', () => {
    const { soup, report } = scanLikeHouse(SAMPLE_HOUSE, { ...SCAN_VARIANTS.cluttered, densityM: 1 }, 1);
    expect(report.clutter!.tables).toBeGreaterThanOrEqual(5);
    expect(report.clutter!.rugs).toBeGreaterThanOrEqual(5);
    const furniture = soup.groups.find((g) => g.name === 'furniture')!;
    const nodes = SAMPLE_HOUSE.rooms.map((r) => nodePosition(SAMPLE_HOUSE, r));
    for (let k = furniture.start; k < furniture.start + furniture.count; k++) {
      const v = soup.indices[k]! * 3;
      const x = soup.positions[v]!,
        y = soup.positions[v + 1]!,
        z = soup.positions[v + 2]!;
      // A rug (1 cm high) may lie under a node; anything taller keeps a metre away from every node on its floor.
      const aboveStorey = y - (y < 2 ? 0 : 2.8);
      for (const p of nodes)
        if (Math.abs(p.y - y) < 2 && aboveStorey > 0.02)
          expect(Math.hypot(p.x - x, p.z - z), `furniture vertex at ${x.toFixed(2)}, ${z.toFixed(2)}`).toBeGreaterThan(0.9);
    }
  });
});

describe('value noise', () => {
  it('has the root mean square the noise is scaled by', () => {
    let sq = 0;
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      const v = valueNoise(i * 0.731, i * 0.377 + 3, i * 0.113 + 7, 5);
      sq += v * v;
    }
    expect(Math.sqrt(sq / n)).toBeCloseTo(VALUE_NOISE_RMS, 1);
  });
});
