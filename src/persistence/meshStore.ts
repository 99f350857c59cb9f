import type { TraversaDb } from './db.ts';

export interface MeshFile {
  name: string;
  type: string;
  blob: Blob;
}

/** Storage room, as the browser reports it; null when it does not say. */
export async function storageRoom(): Promise<{ usage: number; quota: number } | null> {
  const est = await globalThis.navigator?.storage?.estimate?.();
  return est?.quota ? { usage: est.usage ?? 0, quota: est.quota } : null;
}

export type RoomVerdict = { ok: true; warning?: string } | { ok: false; message: string };

const MB = (b: number) => `${Math.round(b / 1e6)} MB`;

/** Whether `bytes` more fit: refuse above 90 % of the quota, warn above 70 %. */
export function judgeRoom(bytes: number, room: { usage: number; quota: number } | null): RoomVerdict {
  if (!room) return { ok: true };
  const after = room.usage + bytes;
  if (after > room.quota * 0.9) {
    return {
      ok: false,
      message: `not enough browser storage: this scan needs ${MB(bytes)} and only ${MB(Math.max(0, room.quota * 0.9 - room.usage))} is free. Remove scans you no longer need, or free space in the browser's site settings.`,
    };
  }
  if (after > room.quota * 0.7)
    return { ok: true, warning: `Browser storage is ${Math.round((after / room.quota) * 100)} % full after this scan (${MB(after)} of ${MB(room.quota)}).` };
  return { ok: true };
}

export async function saveMeshFiles(db: TraversaDb, key: string, files: MeshFile[]): Promise<void> {
  await db.meshFiles.put({ key, savedAt: Date.now(), files });
  // Ask the browser not to evict the project's data under storage pressure (best effort).
  await globalThis.navigator?.storage?.persist?.().catch(() => false);
}

export async function loadMeshFiles(db: TraversaDb, key: string): Promise<MeshFile[] | null> {
  return (await db.meshFiles.get(key))?.files ?? null;
}

/** Delete stored scans no document refers to any more (run at start-up, when no redo can need them). */
export async function deleteUnreferencedMeshes(db: TraversaDb, referenced: Set<string>): Promise<number> {
  const keys = (await db.meshFiles.toCollection().primaryKeys()) as string[];
  const gone = keys.filter((k) => !referenced.has(k));
  await db.meshFiles.bulkDelete(gone);
  return gone.length;
}
