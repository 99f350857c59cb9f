import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** The shared read-only data beside the repository (../shared). Tests skip, saying why, when it is absent. */
export const SHARED = resolve(import.meta.dirname, '../../../shared');
/** The real CapNav release (30 scenes); override with CAPNAV_DIR. */
export const CAPNAV_DIR = process.env.CAPNAV_DIR ?? resolve(SHARED, 'capnav');
export const MESHES_DIR = resolve(SHARED, 'meshes');

const isDir = (dir: string) => existsSync(dir) && statSync(dir).isDirectory();

/** Whether `dir` is there; when not, print a visible reason for the tests that will skip. */
export function sharedAvailable(dir: string, what: string): boolean {
  if (isDir(dir)) return true;
  console.warn(`SKIPPED: ${what} needs ${dir}, which is absent on this machine.`);
  return false;
}
