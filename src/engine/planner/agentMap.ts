import { keyedMemo } from '../../core/keyedMemo.ts';
import { squaredDistances } from './distance.ts';
import { rowMaxOf, type RowMax } from '../terrain/rowMax.ts';
import type { Terrain } from '../terrain/terrain.ts';
import { boxCoverAt, boxRowsAt, crossRow, forRowsOfBox, SPAN, type BoxCover } from './boxRows.ts';

/**
 * What one agent may not have under its footprint in one region, as a cell map, and the footprint
 * tests over it. The collision model is the collider's (body.ts), flattened onto the terrain:
 *
 * - no floor (a wall, a hole, another room) — the footprint may not overhang it;
 * - free height above the floor below the agent's height (a lintel, a table, a crawl space; a
 *   closed door leaf too, for an agent that cannot open doors);
 * - the high side of a rise steeper than the agent's step limit (a sill's edge, a riser): the
 *   footprint may stand wholly below or wholly on top of it, never across it;
 * - a flight of stairs, for an agent that cannot use them (whatever its step limit: CapNav's rule).
 *
 * A pose is free when no blocked cell's centre lies inside the footprint (inflated by the side
 * margin, as the collider's). Row prefix sums make that a constant-time question per grid row, so
 * a box test costs about one operation per centimetre of its extent, at any heading.
 */
export interface AgentSpec {
  shape: 'box' | 'disc';
  /** Half extents of the inflated footprint: across the heading and along it (both the radius for a disc). */
  halfWidthM: number;
  halfDepthM: number;
  heightM: number;
  /** The highest rise climbed (max step + the rules' 1 mm tolerance). */
  stepLimitM: number;
  doorsOpen: boolean;
  stairs: boolean;
}

/** Headings per box whose cell rows are kept (boxRowsAt). */
const MAX_BOX_ROWS = 512;

/** Discs of fewer cells' radius than this are tested row by row. */
const EDT_MIN_RADIUS_CELLS = 12;

/**
 * What an agent may not have under it, apart from its footprint: the blocked cells, their row
 * prefix sums and (on first use) the clearance. It depends on the agent's height, step limit, doors
 * and stairs only, so the maps of a terrain that differ in footprint alone — an agent, the disc of
 * its narrow side, the guide across a bottleneck — share one, and its distance transform is made once.
 */
interface BlockedLayer {
  blocked: Uint8Array;
  /** Per row j: prefix[j·(nx+1) + i] = blocked cells among the row's first i. */
  prefix: Int32Array;
  /** Squared distance (cells²) from each cell centre to the nearest blocked one; made on first use. */
  clearance: Float32Array | null;
}
const layers = keyedMemo<Terrain, BlockedLayer>();
const layerOf = (terrain: Terrain, spec: AgentSpec): BlockedLayer =>
  layers(terrain, `${spec.heightM}|${spec.stepLimitM}|${spec.doorsOpen}|${spec.stairs}`, () => blockedLayer(terrain, spec));

function blockedLayer(terrain: Terrain, spec: AgentSpec): BlockedLayer {
  const { grid } = terrain.region;
  const { floor, headroom, doorHeadroom, stair } = terrain;
  const nx = grid.nx,
    n = nx * grid.nz;
  const blocked = new Uint8Array(n);
  for (let c = 0; c < n; c++) {
    const f = floor[c]!;
    if (Number.isNaN(f)) {
      blocked[c] = 1;
      continue;
    }
    const room = spec.doorsOpen ? headroom[c]! : Math.min(headroom[c]!, doorHeadroom[c]!);
    if (room < spec.heightM || (!spec.stairs && stair[c])) {
      blocked[c] = 1;
      continue;
    }
    const i = c % nx;
    // The high side of a rise the agent cannot climb (NaN neighbours compare false).
    const lim = f - spec.stepLimitM;
    if ((i > 0 && floor[c - 1]! < lim) || (i < nx - 1 && floor[c + 1]! < lim) || (c >= nx && floor[c - nx]! < lim) || (c + nx < n && floor[c + nx]! < lim))
      blocked[c] = 1;
  }
  const prefix = new Int32Array(grid.nz * (nx + 1));
  for (let j = 0; j < grid.nz; j++) {
    let run = 0;
    const base = j * (nx + 1),
      row = j * nx;
    for (let i = 0; i < nx; i++) {
      run += blocked[row + i]!;
      prefix[base + i + 1] = run;
    }
  }
  return { blocked, prefix, clearance: null };
}

export class AgentMap {
  readonly blocked: Uint8Array;
  /** Per row j: prefix[j·(nx+1) + i] = blocked cells among the row's first i. */
  private readonly prefix: Int32Array;
  private readonly layer: BlockedLayer;
  private readonly nx: number;
  private readonly nz: number;
  private readonly x0: number;
  private readonly z0: number;
  private readonly cell: number;
  /** The terrain's floor row maxima (shared by every agent's map of the terrain); made on first use. */
  private rows: RowMax | null = null;

  constructor(
    readonly terrain: Terrain,
    readonly spec: AgentSpec,
    /** False to build the blocked cells anew instead of sharing them (the bench times a build). */
    { shared = true } = {},
  ) {
    const { grid } = terrain.region;
    this.nx = grid.nx;
    this.nz = grid.nz;
    this.x0 = grid.x0;
    this.z0 = grid.z0;
    this.cell = grid.cellM;
    this.layer = shared ? layerOf(terrain, spec) : blockedLayer(terrain, spec);
    this.blocked = this.layer.blocked;
    this.prefix = this.layer.prefix;
  }

  /** Whether the row's cells with centres in [xa, xb] are all unblocked (false when any lies off the grid). */
  private rowFree(j: number, xa: number, xb: number): boolean {
    if (j < 0 || j >= this.nz) return false;
    const i0 = Math.ceil((xa - this.x0) / this.cell - 0.5),
      i1 = Math.floor((xb - this.x0) / this.cell - 0.5);
    if (i0 > i1) return true;
    if (i0 < 0 || i1 >= this.nx) return false;
    const base = j * (this.nx + 1);
    return this.prefix[base + i1 + 1]! - this.prefix[base + i0]! === 0;
  }

  /** Squared distance in cells from the centre of the cell holding (x, z) to the nearest blocked centre. */
  private clearanceAt(x: number, z: number): number {
    const clearance = this.clearance();
    const i = Math.floor((x - this.x0) / this.cell),
      j = Math.floor((z - this.z0) / this.cell);
    if (i < 0 || j < 0 || i >= this.nx || j >= this.nz) return 0;
    return clearance[j * this.nx + i]!;
  }

  /** The layer's clearance, made on first use (shared by the maps of the layer). */
  private clearance(): Float32Array {
    return (this.layer.clearance ??= squaredDistances(this.blocked, this.nx, this.nz));
  }

  /** Whether (x, z) is a cell centre (where the clearance answers a disc test exactly). */
  private onCentre(x: number, z: number): boolean {
    const u = (x - this.x0) / this.cell - 0.5,
      v = (z - this.z0) / this.cell - 0.5;
    return Math.abs(u - Math.round(u)) < 1e-6 && Math.abs(v - Math.round(v)) < 1e-6;
  }

  /** Whether a disc of radius r centred at (x, z) is free. */
  discFree(x: number, z: number, r: number): boolean {
    // A small disc is a few rows of prefix sums: no need of the distance transform (which costs a
    // pass over the whole region, and a diagnosis's small ghosts would each build one).
    if (r >= EDT_MIN_RADIUS_CELLS * this.cell && this.onCentre(x, z)) {
      // Free when no blocked centre lies within r, the row scan's test; and the disc must stay on the grid.
      const rc = r / this.cell;
      const i = Math.round((x - this.x0) / this.cell - 0.5),
        j = Math.round((z - this.z0) / this.cell - 0.5);
      const inside = i - rc >= -0.5 && j - rc >= -0.5 && i + rc <= this.nx - 0.5 && j + rc <= this.nz - 0.5;
      if (inside) return this.clearanceAt(x, z) > rc * rc * (1 + 1e-9);
    }
    const c = this.cell;
    const j0 = Math.ceil((z - r - this.z0) / c - 0.5),
      j1 = Math.floor((z + r - this.z0) / c - 0.5);
    for (let j = j0; j <= j1; j++) {
      const dz = this.z0 + (j + 0.5) * c - z;
      const h = Math.sqrt(Math.max(0, r * r - dz * dz));
      if (!this.rowFree(j, x - h, x + h)) return false;
    }
    return true;
  }

  /**
   * Whether the footprint at (x, z) facing `yaw` is free: a box `2·halfWidth` across the heading and
   * `2·halfDepth` along it (heading = (sin yaw, cos yaw)), or the disc.
   */
  poseFree(x: number, z: number, yaw: number): boolean {
    const s = this.spec;
    if (s.shape === 'disc') return this.discFree(x, z, s.halfWidthM);
    return this.boxFree(x, z, yaw, s.halfWidthM, s.halfDepthM);
  }

  boxFree(x: number, z: number, yaw: number, hu: number, hv: number): boolean {
    const cell = this.cell;
    const sn = Math.sin(yaw),
      cs = Math.cos(yaw);
    const centred = this.onCentre(x, z);
    if (centred) {
      // Quick answers from the clearance: clear past the corners, or a blocked centre within the inscribed disc.
      const d2 = this.clearanceAt(x, z) * cell * cell;
      const inner = Math.min(hu, hv) - cell;
      if (inner > 0 && d2 < inner * inner) return false;
      if (d2 > (hu * hu + hv * hv) * (1 + 1e-9) && this.discFree(x, z, Math.hypot(hu, hv))) return true;
    }
    // A long box holds two more discs as wide as it, one at each end: a blocked centre in either
    // blocks it. The clearance is measured from the centre of the cell holding a point, which lies
    // within half a cell's diagonal of it.
    const r = Math.min(hu, hv) - 0.75 * cell,
      reach = Math.abs(hv - hu);
    if (r > 0 && reach > cell) {
      // Along the heading (sin yaw, cos yaw) when the box is deeper than wide, else across it (cos yaw, −sin yaw).
      const ex = hv > hu ? sn * reach : cs * reach,
        ez = hv > hu ? cs * reach : -sn * reach;
      for (let t = 1; t >= -1; t -= 2) {
        const ux = x + t * ex,
          uz = z + t * ez;
        if (this.insideGrid(ux, uz) && Math.sqrt(this.clearanceAt(ux, uz)) * cell + 0.7072 * cell < r) return false;
      }
    }
    // On a cell centre (every lattice point is one) the cells the box holds are the same at every
    // point for one heading: its rows, made once, are two prefix-sum reads each.
    if (centred) {
      const tables = this.rowsOfBox(yaw, hu, hv);
      if (tables) {
        const i = Math.round((x - this.x0) / cell - 0.5),
          j = Math.round((z - this.z0) / cell - 0.5);
        return this.coverClear(i, j, tables.cover) || this.rowsFree(i, j, tables.rows);
      }
    }
    // Row by row (as forRowsOfBox walks them, inline): the first row holding a blocked cell settles it.
    const z0 = this.z0;
    const px = this.corners,
      pz = this.cornersZ;
    px[0] = x + hv * sn + hu * cs;
    px[1] = x + hv * sn - hu * cs;
    px[2] = x - hv * sn - hu * cs;
    px[3] = x - hv * sn + hu * cs;
    pz[0] = z + hv * cs - hu * sn;
    pz[1] = z + hv * cs + hu * sn;
    pz[2] = z - hv * cs + hu * sn;
    pz[3] = z - hv * cs - hu * sn;
    const j0 = Math.ceil((Math.min(pz[0]!, pz[1]!, pz[2]!, pz[3]!) - z0) / cell - 0.5),
      j1 = Math.floor((Math.max(pz[0]!, pz[1]!, pz[2]!, pz[3]!) - z0) / cell - 0.5);
    for (let j = j0; j <= j1; j++) {
      const zc = z0 + (j + 0.5) * cell;
      crossRow(px, pz, zc);
      const xa = SPAN[0]!,
        xb = SPAN[1]!;
      if (xa <= xb && !this.rowFree(j, xa, xb)) return false;
    }
    return true;
  }
  private readonly corners = new Float64Array(4);
  private readonly cornersZ = new Float64Array(4);

  /**
   * Per box (half extents) and heading, the cells whose centres it holds when centred on a cell
   * centre, relative to that cell: [first row, then per row its first and last cell (first > last
   * when the row holds none)]. Made for at most `MAX_BOX_ROWS` headings per box (a search uses its
   * lattice's few dozen; a caller turning through arbitrary headings gets the general walk).
   */
  private readonly boxRows: { hu: number; hv: number; byYaw: Map<number, { rows: Int32Array; cover: BoxCover }> }[] = [];

  private rowsOfBox(yaw: number, hu: number, hv: number): { rows: Int32Array; cover: BoxCover } | null {
    let entry = this.boxRows.find((b) => b.hu === hu && b.hv === hv);
    if (!entry) {
      entry = { hu, hv, byYaw: new Map() };
      this.boxRows.push(entry);
    }
    let tables = entry.byYaw.get(yaw);
    if (tables === undefined) {
      if (entry.byYaw.size >= MAX_BOX_ROWS) return null;
      tables = { rows: boxRowsAt(yaw, hu, hv, this.cell), cover: boxCoverAt(yaw, hu, hv, this.cell) };
      entry.byYaw.set(yaw, tables);
    }
    return tables;
  }

  /** Whether every disc of a box's cover (boxCoverAt) round cell (i, j), the box's centre, is clear, and the box well on the grid. */
  private coverClear(i: number, j: number, cover: BoxCover): boolean {
    const nx = this.nx;
    if (i - cover.reachI < 1 || j - cover.reachJ < 1 || i + cover.reachI > nx - 2 || j + cover.reachJ > this.nz - 2) return false;
    const clearance = this.clearance();
    const { offsets, r2 } = cover;
    for (let m = 0; m < offsets.length; m += 2) if (!(clearance[(j + offsets[m + 1]!) * nx + i + offsets[m]!]! > r2 * (1 + 1e-9))) return false;
    return true;
  }

  /** Whether every cell of a box's rows (rowsOfBox) round cell (i, j), the box's centre, is unblocked and on the grid. */
  private rowsFree(i: number, j: number, rows: Int32Array): boolean {
    const nx = this.nx,
      prefix = this.prefix;
    const first = j + rows[0]!;
    for (let r = 1; r < rows.length; r += 2) {
      // A row off the grid blocks it even where it holds no cell centre, as the general walk's does.
      const jr = first + ((r - 1) >> 1);
      if (jr < 0 || jr >= this.nz) return false;
      const i0 = i + rows[r]!,
        i1 = i + rows[r + 1]!;
      if (i0 > i1) continue;
      if (i0 < 0 || i1 >= nx) return false;
      const base = jr * (nx + 1);
      if (prefix[base + i1 + 1]! - prefix[base + i0]! !== 0) return false;
    }
    return true;
  }

  /** Whether (x, z) lies on the grid. */
  private insideGrid(x: number, z: number): boolean {
    const i = Math.floor((x - this.x0) / this.cell),
      j = Math.floor((z - this.z0) / this.cell);
    return i >= 0 && j >= 0 && i < this.nx && j < this.nz;
  }

  /**
   * The support under the footprint at (x, z) facing yaw (the disc when the map's agent is one): the
   * highest floor of its cells that the agent standing on `floorY` could be on (at most its step
   * above), as the collider takes the highest support it can climb to.
   */
  supportUnder(x: number, z: number, yaw: number, floorY: number): number {
    const { shape, halfWidthM: hu, halfDepthM: hv, stepLimitM } = this.spec;
    const reach = floorY + stepLimitM + 0.005,
      floor = this.terrain.floor,
      c = this.cell;
    let best = floorY;
    const rows = (this.rows ??= rowMaxOf(floor, this.nx));
    const row = (j: number, xa: number, xb: number) => {
      if (j < 0 || j >= this.nz) return;
      const i0 = Math.max(0, Math.ceil((xa - this.x0) / c - 0.5)),
        i1 = Math.min(this.nx - 1, Math.floor((xb - this.x0) / c - 0.5));
      if (i0 > i1) return;
      // Most rows hold nothing above the agent's reach: their highest floor is the answer.
      const top = rows.max(j, i0, i1);
      if (top <= reach) {
        if (top > best) best = top;
        return;
      }
      for (let i = i0; i <= i1; i++) {
        const f = floor[j * this.nx + i]!;
        if (f > best && f <= reach) best = f;
      }
    };
    if (shape === 'disc') {
      const j0 = Math.ceil((z - hu - this.z0) / c - 0.5),
        j1 = Math.floor((z + hu - this.z0) / c - 0.5);
      for (let j = j0; j <= j1; j++) {
        const dz = this.z0 + (j + 0.5) * c - z;
        const h = Math.sqrt(Math.max(0, hu * hu - dz * dz));
        row(j, x - h, x + h);
      }
      return best;
    }
    forRowsOfBox(x, z, yaw, hu, hv, this.z0, c, row);
    return best;
  }

  /** Floor height under a point (NaN where there is none). */
  floorAt(x: number, z: number): number {
    const i = Math.floor((x - this.x0) / this.cell),
      j = Math.floor((z - this.z0) / this.cell);
    if (i < 0 || j < 0 || i >= this.nx || j >= this.nz) return NaN;
    return this.terrain.floor[j * this.nx + i]!;
  }
}
