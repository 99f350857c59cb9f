import { Matrix4 } from 'three';
import { describe, expect, it } from 'vitest';
import { frameMatrix } from '../../../../src/engine/frame.ts';
import { detectFloorLevels } from '../../../../src/engine/mesh/floors.ts';
import { mulberry32 } from '../../../support/random.ts';
import { append } from '../../../../src/core/arrays.ts';

/** Triangle soup builder: horizontal rectangles facing up or down, and vertical walls (Y up, metres). */
class Building {
  positions: number[] = [];

  /** A horizontal x0..x1 × z0..z1 rectangle at height y, split into n × n quads (scans are many small triangles). */
  slab(x0: number, z0: number, x1: number, z1: number, y: number, facing: 'up' | 'down' = 'up', n = 1, jitter?: () => number): this {
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const xa = x0 + ((x1 - x0) * i) / n,
          xb = x0 + ((x1 - x0) * (i + 1)) / n;
        const za = z0 + ((z1 - z0) * j) / n,
          zb = z0 + ((z1 - z0) * (j + 1)) / n;
        const h = () => y + (jitter?.() ?? 0);
        const [a, b, c, d] = [
          [xa, h(), za],
          [xa, h(), zb],
          [xb, h(), zb],
          [xb, h(), za],
        ];
        // (b − a) × (c − a) points up for this corner order.
        const tris = facing === 'up' ? [a, b, c, a, c, d] : [a, c, b, a, d, c];
        for (const p of tris) append(this.positions, p!);
      }
    return this;
  }

  wall(x0: number, z0: number, x1: number, z1: number, y0: number, y1: number): this {
    for (const p of [
      [x0, y0, z0],
      [x1, y0, z1],
      [x1, y1, z1],
      [x0, y0, z0],
      [x1, y1, z1],
      [x0, y1, z0],
    ])
      append(this.positions, p);
    return this;
  }

  /** Straight stairs along +x from (x, 0, z): `steps` treads of `depth` × `width`, rising `rise` each. */
  stairs(x: number, z: number, steps: number, rise: number, depth = 0.28, width = 1): this {
    for (let s = 1; s <= steps; s++) {
      this.wall(x + (s - 1) * depth, z, x + (s - 1) * depth, z + width, (s - 1) * rise, s * rise);
      this.slab(x + (s - 1) * depth, z, x + s * depth, z + width, s * rise);
    }
    return this;
  }

  array(): Float32Array {
    return new Float32Array(this.positions);
  }
}

const Y_UP = new Matrix4();

/** Ground floor at 0, upper floor at 3 m reached by 17 stairs, furniture on both, ceilings above both. */
function twoStoreys(): Building {
  return new Building()
    .slab(0, 0, 10, 8, 0) // ground floor, 80 m²
    .slab(0, 0, 10, 8, 2.8, 'down') // its ceiling (the upper slab's underside)
    .slab(0, 3.5, 10, 8, 3) // upper floor, 45 m² (the stairwell is open)
    .slab(0, 3.5, 10, 8, 5.8, 'down') // upper ceiling
    .slab(2, 5, 4, 6, 0.75) // dining table, 2 m²
    .slab(6, 5, 8, 6.6, 3.5) // bed, 3.2 m²
    .stairs(5, 1, 17, 3 / 17) // treads of 0.28 m², from 0.18 to 3 m
    .wall(0, 0, 10, 0, 0, 5.8)
    .wall(0, 8, 10, 8, 0, 5.8);
}

describe('floor levels from walkable area', () => {
  it('finds both storeys of a two-storey house, and not its stairs, table, bed or ceilings', () => {
    const floors = detectFloorLevels(twoStoreys().array(), null, Y_UP);
    expect(floors).toHaveLength(2);
    expect(floors[0]).toBeCloseTo(0, 6);
    expect(floors[1]).toBeCloseTo(3, 6);
  });

  it('finds the same storeys in a Z-up scan modelled in centimetres, through its frame alone', () => {
    const yUp = twoStoreys().positions;
    // (x, y, z) Y up in metres → (x, −z, y) Z up in centimetres; the frame turns and scales it back.
    const zUpCm = new Float32Array(yUp.length);
    for (let i = 0; i < yUp.length; i += 3) zUpCm.set([yUp[i]! * 100, -yUp[i + 2]! * 100, yUp[i + 1]! * 100], i);
    const floors = detectFloorLevels(zUpCm, null, frameMatrix('z', 0.01));
    expect(floors).toEqual([expect.closeTo(0, 6), expect.closeTo(3, 6)]);
  });

  it('reads indexed and unindexed geometry alike', () => {
    const soup = twoStoreys().array();
    const index = Uint32Array.from({ length: soup.length / 3 }, (_, i) => i);
    expect(detectFloorLevels(soup, index, Y_UP)).toEqual(detectFloorLevels(soup, null, Y_UP));
  });

  it('sees no floor in a staircase on its own: every tread is far below a square metre', () => {
    expect(detectFloorLevels(new Building().stairs(0, 0, 17, 3 / 17, 0.3, 1.2).array(), null, Y_UP)).toEqual([]);
  });

  it('finds one floor in a noisy scan floor (±2 cm) with a sofa and a low table on it', () => {
    const rng = mulberry32(7);
    const noise = () => (rng() - 0.5) * 0.04;
    const room = new Building().slab(0, 0, 6, 5, 0.0, 'up', 40, noise).slab(1, 1, 3, 2, 0.45, 'up', 8, noise).slab(4, 2, 5, 3, 0.4, 'up', 6, noise);
    const floors = detectFloorLevels(room.array(), null, Y_UP);
    expect(floors).toHaveLength(1);
    expect(Math.abs(floors[0]!)).toBeLessThan(0.01);
  });

  it('keeps a mezzanine that holds enough area, and drops it when it is a sliver of the whole', () => {
    const house = () => new Building().slab(0, 0, 10, 10, 0);
    expect(detectFloorLevels(house().slab(0, 0, 2, 2, 2.5).array(), null, Y_UP)).toEqual([0, 2.5]); // 4 m² of 104
    expect(detectFloorLevels(house().slab(0, 0, 1.2, 1.2, 2.5).array(), null, Y_UP)).toEqual([0]); // 1.44 m² of 101: under 2 %
  });

  it('is empty for geometry with nothing facing up', () => {
    expect(detectFloorLevels(new Building().slab(0, 0, 4, 4, 2.5, 'down').wall(0, 0, 4, 0, 0, 2.5).array(), null, Y_UP)).toEqual([]);
  });

  it('does not take the tops of roofless walls for a floor, however long they are', () => {
    const house = new Building().slab(0, 0, 12, 10, 0, 'up', 6);
    // 0.12 m wide wall tops at 2.5 m around and across the house: 68 m of strip, 8 m² (7 % of the floor).
    for (const [x0, z0, x1, z1] of [
      [0, 0, 12, 0.12],
      [0, 9.88, 12, 10],
      [0, 0, 0.12, 10],
      [11.88, 0, 12, 10],
      [6, 0, 6.12, 10],
      [0, 5, 12, 5.12],
    ] as const) {
      house.slab(x0, z0, x1, z1, 2.5, 'up', 1);
    }
    expect(detectFloorLevels(house.array(), null, Y_UP).map((h) => Math.round(h * 100) / 100)).toEqual([0]);
  });
});
