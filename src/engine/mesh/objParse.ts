import { LineSegments, Mesh, Points, type Material } from 'three';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { MeshLoadError } from './errors.ts';
import { toBuffers, triangleCount, type GeometryBuffers } from './geometryBuffers.ts';

/** One object (`o`/`g`) of an OBJ file, ready to cross to the page where materials are made. */
export interface ObjPart {
  name: string;
  kind: 'mesh' | 'lines' | 'points';
  geometry: GeometryBuffers;
  /** Material slots in group order (`usemtl` names), with the shading OBJLoader chose. */
  materials: { name: string; flatShading: boolean; vertexColors: boolean }[];
}

export interface ObjParsed {
  parts: ObjPart[];
  /** `mtllib` names in file order. */
  materialLibraries: string[];
  triangles: number;
}

/**
 * Parse OBJ text without materials (runs in the parse worker). Materials come from the .mtl and
 * need textures, which belong on the page, so only their names and shading flags travel back.
 */
export function parseObj(file: string, data: ArrayBuffer): ObjParsed {
  const text = new TextDecoder().decode(data);
  if (text.includes('\u0000')) throw new MeshLoadError(file, 'not an OBJ file (it contains binary data)');
  let group;
  try {
    group = new OBJLoader().parse(text);
  } catch (err) {
    throw new MeshLoadError(file, `could not be read as OBJ (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
  const parts: ObjPart[] = [];
  let triangles = 0;
  for (const child of group.children) {
    if (!(child instanceof Mesh || child instanceof LineSegments || child instanceof Points)) continue;
    const kind = child instanceof Mesh ? 'mesh' : child instanceof LineSegments ? 'lines' : 'points';
    const geometry = toBuffers(child.geometry);
    // OBJ indices past the vertex, normal or uv lists come out as NaNs instead of an error.
    if (Object.values(geometry.attributes).some((a) => hasNaN(a.array))) {
      throw new MeshLoadError(
        file,
        notANumber(text) ?? `object '${child.name || 'default'}' refers to vertices, normals or texture coordinates that the file does not define`,
      );
    }
    const list: Material[] = Array.isArray(child.material) ? child.material : [child.material];
    const materials = list.map((m) => ({
      name: m.name,
      flatShading: 'flatShading' in m ? Boolean(m.flatShading) : false,
      vertexColors: m.vertexColors,
    }));
    if (kind === 'mesh') triangles += triangleCount(geometry);
    parts.push({ name: child.name, kind, geometry, materials });
  }
  if (triangles === 0) {
    const vertices = (text.match(/^\s*v\s/gm) ?? []).length;
    throw new MeshLoadError(
      file,
      vertices
        ? `contains no triangles (${vertices.toLocaleString('en')} vertices and no faces)`
        : 'contains no triangles (no vertices or faces: is this an OBJ file?)',
    );
  }
  // OBJLoader hangs the `mtllib` names on the group it returns.
  const libraries = (group as unknown as { materialLibraries?: string[] }).materialLibraries ?? [];
  return { parts, materialLibraries: [...libraries], triangles };
}

function hasNaN(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== a[i]) return true;
  return false;
}

const WHAT: Record<string, string> = { v: 'vertex', vn: 'normal', vt: 'texture coordinate' };

/**
 * The first `v`, `vn` or `vt` line with a value that is not a number (`nan`, `inf`, a word), as
 * "line N: vertex K has y = nan": OBJLoader reads those as NaN, which would otherwise be blamed
 * on a face pointing past the lists.
 */
function notANumber(text: string): string | null {
  const counts: Record<string, number> = { v: 0, vn: 0, vt: 0 };
  let line = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    const words = text.slice(start, end).trim().split(/\s+/);
    start = end + 1;
    const kind = words[0] ?? '';
    if (!Object.hasOwn(counts, kind)) continue;
    counts[kind]!++;
    const values = words.slice(1, 4);
    const needed = kind === 'vt' ? 1 : 3;
    if (values.length < needed)
      return `line ${line}: ${WHAT[kind]} ${counts[kind]} has ${values.length} coordinate${values.length === 1 ? '' : 's'}, not ${needed}`;
    const bad = values.findIndex((w) => !Number.isFinite(parseFloat(w)));
    if (bad >= 0)
      return `line ${line}: ${WHAT[kind]} ${counts[kind]} has ${(kind === 'vt' ? 'uvw' : 'xyz')[bad]} = ${JSON.stringify(values[bad]).slice(1, -1).slice(0, 20)}: coordinates must be finite numbers`;
  }
  return null;
}
