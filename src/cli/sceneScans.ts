import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { dirname, extname, join, normalize, relative, sep } from 'node:path';
import { isRegularFile, readInputText } from './files.ts';
import { refKind } from '../engine/mesh/refs.ts';

/**
 * The scans of a release's scenes in one folder (`--scans <dir>`): `<dir>/<SCENE>.glb|.gltf|.ply|.obj`.
 * A .gltf or .obj brings the files it names (its buffers and images; its .mtl and their textures),
 * not every file beside it: the folder holds every scene's scan.
 */

export const SCAN_EXTENSIONS = ['.glb', '.gltf', '.ply', '.obj'] as const;

/** The scene's scan in `dir`, the first extension of SCAN_EXTENSIONS found; null when there is none. */
export function sceneScan(dir: string, scene: string): string | null {
  return SCAN_EXTENSIONS.map((ext) => join(dir, scene + ext)).find(isRegularFile) ?? null;
}

/** Names a glTF's buffers and images give (embedded data: URIs are no files). */
function gltfRefs(text: string): string[] {
  let doc: { buffers?: { uri?: unknown }[]; images?: { uri?: unknown }[] };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch {
    return []; // the loader says what is wrong with it
  }
  const uris = [...(Array.isArray(doc.buffers) ? doc.buffers : []), ...(Array.isArray(doc.images) ? doc.images : [])].map((x) => x?.uri);
  return uris.filter((u): u is string => typeof u === 'string' && refKind(u) === 'name').map(decodeRef);
}

const decodeRef = (u: string) => {
  try {
    return decodeURIComponent(u);
  } catch {
    return u;
  }
};

/** The .mtl files an .obj names, or the textures an .mtl names (the last word of a map line: options come first). */
function objRefs(text: string, kind: 'obj' | 'mtl'): string[] {
  const line = kind === 'obj' ? /^\s*mtllib\s+(.+?)\s*$/gm : /^\s*(?:map_\w+|bump|disp|decal|norm|refl)\s+(.+?)\s*$/gim;
  return [...text.matchAll(line)].map((m) => (kind === 'obj' ? m[1]! : m[1]!.split(/\s+/).pop()!));
}

/** A reference inside the scan's folder, as a path relative to it; null when it leaves the folder. */
function inside(dir: string, ref: string): string | null {
  const rel = relative(dir, normalize(join(dir, ref.replace(/\\/g, '/'))));
  return rel === '' || rel.startsWith('..') || rel.startsWith(sep) ? null : rel;
}

/** The scan's files: the main one, then the side files it names that exist (by their path relative to the scan's folder). */
export function scanFiles(path: string): { path: string; name: string }[] {
  const dir = dirname(path);
  const files = [{ path, name: relative(dir, path) }];
  const seen = new Set([files[0]!.name]);
  const add = (refs: string[]) => {
    const added: string[] = [];
    for (const ref of refs) {
      const rel = inside(dir, ref);
      if (rel === null || seen.has(rel) || !isRegularFile(join(dir, rel))) continue;
      seen.add(rel);
      files.push({ path: join(dir, rel), name: rel.split(sep).join('/') });
      added.push(join(dir, rel));
    }
    return added;
  };
  const ext = extname(path).toLowerCase();
  if (ext === '.gltf') add(gltfRefs(readInputText(path, 'scan')));
  else if (ext === '.obj') {
    for (const mtl of add(objRefs(readInputText(path, 'scan'), 'obj'))) add(objRefs(readInputText(mtl, 'material file'), 'mtl'));
  }
  return files;
}

/** SHA-256 of a file, read a block at a time (a scan may be a gigabyte), as `sha256sum` prints it. */
export function fileDigest(path: string): string {
  const h = createHash('sha256');
  const block = Buffer.alloc(4 * 2 ** 20);
  const fd = openSync(path, 'r');
  try {
    for (let n; (n = readSync(fd, block, 0, block.length, null)) > 0;) h.update(block.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}
