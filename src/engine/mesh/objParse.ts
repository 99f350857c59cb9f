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
    if (Object.values(geometry.attributes).some((a) => hasNaN(a.array))) throw new MeshLoadError(file, `object '${child.name || 'default'}' refers to vertices, normals or texture coordinates that the file does not define`);
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
    throw new MeshLoadError(file, vertices ? `contains no triangles (${vertices.toLocaleString('en')} vertices and no faces)` : 'contains no triangles (no vertices or faces: is this an OBJ file?)');
  }
  // OBJLoader hangs the `mtllib` names on the group it returns.
  const libraries = (group as unknown as { materialLibraries?: string[] }).materialLibraries ?? [];
  return { parts, materialLibraries: [...libraries], triangles };
}

function hasNaN(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== a[i]) return true;
  return false;
}
