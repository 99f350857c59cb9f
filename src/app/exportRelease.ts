import type { Project } from '../core/project.ts';
import { releasePath } from '../formats/capnav/files.ts';
import { writeRelease } from '../formats/capnav/write.ts';
import { zipFolder } from '../formats/zip.ts';

/**
 * A zip of the project in the CapNav release layout, under one folder named after the project.
 * Throws `UnsafeZipEntryError`, naming the scene, if a scene id would make an unsafe entry.
 */
export function releaseZip(project: Project): { name: string; bytes: Uint8Array } {
  const folder = safeName(project.name) || 'capnav';
  const owner = new Map(project.scenes.flatMap((s) => [releasePath.graph(s.id), releasePath.qa(s.id), releasePath.traverse(s.id)].map((p) => [p, `scene ${JSON.stringify(s.id)}`])));
  const files = writeRelease(project).map((f) => ({ ...f, from: owner.get(f.path) }));
  return { name: `${folder}.zip`, bytes: zipFolder(folder, files) };
}

/** A project name as a file or folder name: word characters, dots and dashes, never starting with a dot (no `..`, no hidden folder). */
export function safeName(name: string): string {
  return name.trim().replace(/[^\w.-]+/g, '-').replace(/^[-.]+|-+$/g, '');
}

export function download(name: string, bytes: Uint8Array, type = 'application/zip'): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
