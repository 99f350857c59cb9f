import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js';
import { MeshLoadError } from './errors.ts';
import { toBuffers, triangleCount, type GeometryBuffers } from './geometryBuffers.ts';

export interface PlyParsed {
  geometry: GeometryBuffers;
  format: 'ascii' | 'binary_little_endian' | 'binary_big_endian';
  hasColors: boolean;
}

interface PlyElement {
  name: string;
  count: number;
  properties: { name: string; type: string; list: boolean }[];
}

const SIZES: Record<string, number> = {
  char: 1,
  uchar: 1,
  int8: 1,
  uint8: 1,
  short: 2,
  ushort: 2,
  int16: 2,
  uint16: 2,
  int: 4,
  uint: 4,
  int32: 4,
  uint32: 4,
  float: 4,
  float32: 4,
  double: 8,
  float64: 8,
};
const FORMATS = ['ascii', 'binary_little_endian', 'binary_big_endian'] as const;
/** Headers are a few hundred bytes; anything this long without `end_header` is not a PLY header. */
const MAX_HEADER = 1 << 20;

/**
 * Parse a PLY file (ASCII or binary, vertex colours, normals) into transferable buffers. Runs in the
 * parse worker. PLYLoader trusts its input, so the header and the body length are checked first to
 * turn broken files into sentences instead of RangeErrors or silently short meshes.
 */
export function parsePly(file: string, data: ArrayBuffer): PlyParsed {
  const bytes = new Uint8Array(data);
  const { elements, format, headerEnd } = readHeader(file, bytes);
  checkBody(file, bytes, headerEnd, elements, format);

  let geometry;
  try {
    geometry = withoutThreeLogs(() => new PLYLoader().parse(data));
  } catch (err) {
    if (err instanceof RangeError) throw new MeshLoadError(file, 'the file is truncated (the data ends before every element in the header was read)');
    throw new MeshLoadError(file, `could not be read as PLY (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
  const vertices = elements.find((e) => e.name === 'vertex')!.count;
  const position = geometry.getAttribute('position');
  if (!position || (geometry.index && position.count !== vertices)) {
    throw new MeshLoadError(file, `the file is truncated (read ${position?.count ?? 0} of ${vertices} vertices)`);
  }
  checkFinite(file, position.array);
  const buffers = toBuffers(geometry);
  const tris = triangleCount(buffers);
  if (!geometry.index && position.count === vertices) {
    throw new MeshLoadError(file, `contains no triangles (${vertices.toLocaleString('en')} vertices and no faces: a point cloud?)`);
  }
  if (tris === 0) throw new MeshLoadError(file, 'contains no triangles');
  checkIndices(file, buffers.index, position.count);
  if (!geometry.getAttribute('normal')) {
    geometry.computeVertexNormals();
    buffers.attributes.normal = { array: geometry.getAttribute('normal').array as Float32Array, itemSize: 3, normalized: false };
  }
  return { geometry: buffers, format, hasColors: 'color' in buffers.attributes };
}

function readHeader(file: string, bytes: Uint8Array) {
  const head = latin1(bytes.subarray(0, Math.min(bytes.length, MAX_HEADER)));
  if (!/^ply[ \t]*(\r\n|\r|\n)/.test(head)) throw new MeshLoadError(file, "not a PLY file (it does not start with 'ply')");
  const end = /(?:\r\n|\r|\n)end_header[ \t]*(\r\n|\r|\n|$)/.exec(head);
  if (!end) throw new MeshLoadError(file, "the header ends before 'end_header'");
  const headerEnd = end.index + end[0].length;

  let format: PlyParsed['format'] | null = null;
  const elements: PlyElement[] = [];
  const lines = head.slice(0, end.index).split(/\r\n|\r|\n/);
  for (let i = 1; i < lines.length; i++) {
    const words = lines[i]!.trim().split(/\s+/);
    const where = `header line ${i + 1}`;
    switch (words[0]) {
      case 'format':
        format = FORMATS.find((f) => f === words[1]) ?? null;
        if (!format) throw new MeshLoadError(file, `unknown PLY format '${words[1] ?? ''}' on ${where} (expected ascii or binary)`);
        break;
      case 'element': {
        const count = Number(words[2]);
        if (!words[1] || !Number.isInteger(count) || count < 0) throw new MeshLoadError(file, `bad element line on ${where}: '${lines[i]!.trim()}'`);
        elements.push({ name: words[1], count, properties: [] });
        break;
      }
      case 'property': {
        const element = elements[elements.length - 1];
        if (!element) throw new MeshLoadError(file, `a property comes before any element on ${where}`);
        const list = words[1] === 'list';
        const types = list ? [words[2], words[3]] : [words[1]];
        const bad = types.find((t) => !t || !(t in SIZES));
        if (bad !== undefined) throw new MeshLoadError(file, `unknown property type '${bad ?? ''}' on ${where}`);
        element.properties.push({ name: (list ? words[4] : words[2]) ?? '', type: list ? `${words[2]} ${words[3]}` : words[1]!, list });
        break;
      }
      default: // comment, obj_info and blank lines carry nothing we need
    }
  }
  if (!format) throw new MeshLoadError(file, "the header has no 'format' line");
  const vertex = elements.find((e) => e.name === 'vertex');
  const names = new Set(vertex?.properties.map((p) => p.name));
  if (!vertex || !names.has('x') || !names.has('y') || !names.has('z')) throw new MeshLoadError(file, 'has no vertex element with x, y and z');
  return { elements, format, headerEnd };
}

/** Reject bodies too short for what the header promises (lists are counted as empty, so this is a lower bound). */
function checkBody(file: string, bytes: Uint8Array, start: number, elements: PlyElement[], format: PlyParsed['format']) {
  if (format === 'ascii') {
    const expected = elements.reduce((n, e) => n + e.count, 0);
    const lines = countDataLines(bytes, start);
    if (lines < expected)
      throw new MeshLoadError(
        file,
        `the file is truncated (the header promises ${expected.toLocaleString('en')} element lines, the data has ${lines.toLocaleString('en')})`,
      );
    return;
  }
  let min = 0;
  for (const e of elements) {
    const per = e.properties.reduce((n, p) => n + SIZES[p.list ? p.type.split(' ')[0]! : p.type]!, 0);
    min += per * e.count;
  }
  const have = bytes.length - start;
  if (have < min)
    throw new MeshLoadError(
      file,
      `the file is truncated (${have.toLocaleString('en')} bytes of data after the header, at least ${min.toLocaleString('en')} expected)`,
    );
}

function countDataLines(bytes: Uint8Array, start: number): number {
  let lines = 0;
  let content = false;
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 10 || c === 13) {
      if (content) lines++;
      content = false;
    } else if (c !== 32 && c !== 9) content = true;
  }
  return content ? lines + 1 : lines;
}

export function checkIndices(file: string, index: ArrayLike<number> | null, vertexCount: number): void {
  if (!index) return;
  for (let i = 0; i < index.length; i++) {
    const v = index[i]!;
    if (v >= vertexCount) throw new MeshLoadError(file, `triangle ${Math.floor(i / 3)} refers to vertex ${v}, but there are only ${vertexCount} vertices`);
  }
}

/**
 * A vertex at NaN or infinity (PLY's float fields can hold either) poisons the bounds, the BVH and
 * every distance measured in the scan; refused with the first such vertex.
 */
export function checkFinite(file: string, xyz: ArrayLike<number>): void {
  for (let i = 0; i < xyz.length; i++) {
    const v = xyz[i]!;
    if (!Number.isFinite(v)) throw new MeshLoadError(file, `vertex ${Math.floor(i / 3)} has ${'xyz'[i % 3]} = ${v}: coordinates must be finite numbers`);
  }
}

/**
 * PLYLoader logs a NaN bounding sphere (with the whole geometry) through console.error before we
 * can look at the vertices; `checkFinite` then refuses the file in one sentence, so three's own
 * messages are held back while it parses. Anything else logged still goes through.
 */
function withoutThreeLogs<T>(run: () => T): T {
  const error = console.error;
  console.error = (...args: unknown[]) => {
    if (!(typeof args[0] === 'string' && args[0].startsWith('THREE.'))) error(...args);
  };
  try {
    return run();
  } finally {
    console.error = error;
  }
}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}
