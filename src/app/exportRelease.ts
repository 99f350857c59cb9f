import { strToU8, zipSync } from 'fflate';
import type { Project } from '../core/project.ts';
import { writeRelease } from '../formats/capnav/write.ts';

/** A zip of the project in the CapNav release layout, under one folder named after the project. */
export function releaseZip(project: Project): { name: string; bytes: Uint8Array } {
  const folder = safeName(project.name) || 'capnav';
  const entries: Record<string, Uint8Array> = {};
  for (const f of writeRelease(project)) entries[`${folder}/${f.path}`] = strToU8(f.text);
  return { name: `${folder}.zip`, bytes: zipSync(entries, { level: 6 }) };
}

export function safeName(name: string): string {
  return name.trim().replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '');
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
