import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The shared read-only data beside the repository (../shared). Tests skip, saying why, when it is absent. */
export const SHARED = resolve(import.meta.dirname, '../../../shared');
export const CAPNAV_DIR = resolve(SHARED, 'capnav');
export const MESHES_DIR = resolve(SHARED, 'meshes');

export function sharedAvailable(dir: string, what: string): boolean {
  if (existsSync(dir)) return true;
  console.warn(`SKIPPED: ${what} needs ${dir}, which is absent on this machine.`);
  return false;
}
