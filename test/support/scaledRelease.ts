import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { classify } from '../../src/formats/capnav/files.ts';

/**
 * A larger CapNav release made from a real one, for measuring at scale: its scenes copied
 * round-robin under new ids (`HM3D00025` → `HM3D00025_r000`, `HM3D00025_r001`, …, the copy
 * number in the suffix), in the same folders. A copy's file names and any whole-word mention of
 * its scene id inside its files are rewritten; everything else is kept byte for byte, and the
 * release's other files (agent_profile.json) are copied as they are, so the generated release
 * reads like the real one: same graphs, questions, labels and problems, `scenes / real` times over.
 */
export interface ScaledRelease {
  dir: string;
  /** The generated scene ids, in generation order (copy 0 of every real scene, then copy 1, …). */
  sceneIds: string[];
  /** Total bytes of the files written. */
  bytes: number;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The id of copy `round` of scene `id`. */
export const copyId = (id: string, round: number): string => `${id}_r${String(round).padStart(3, '0')}`;

/** Write a release of `scenes` scenes made from the release in `source` into a new temporary folder (or `into`). */
export function scaledRelease(source: string, scenes: number, into?: string): ScaledRelease {
  const dir = into ?? mkdtempSync(join(tmpdir(), `traversa-release-${scenes}-`));
  const perScene = new Map<string, string[]>();
  const others: string[] = [];
  for (const path of walk(source)) {
    const kind = classify(path);
    if (kind.kind === 'graph' || kind.kind === 'qa' || kind.kind === 'traverse') {
      const list = perScene.get(kind.scene) ?? [];
      list.push(path);
      perScene.set(kind.scene, list);
    } else others.push(path);
  }
  const real = [...perScene.keys()].sort();
  if (!real.length) throw new Error(`${source} has no CapNav scene files`);

  let bytes = 0;
  const write = (rel: string, data: Buffer | string) => {
    const to = join(dir, rel);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, data);
    bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  };
  for (const path of others) write(relative(source, path), readFileSync(path));

  // Each real scene's files are read once; the copies differ only in the id.
  const texts = new Map(real.map((id) => [id, perScene.get(id)!.map((p) => ({ rel: relative(source, p), text: readFileSync(p, 'utf8') }))]));
  const sceneIds: string[] = [];
  for (let i = 0; i < scenes; i++) {
    const id = real[i % real.length]!,
      round = Math.floor(i / real.length);
    const to = copyId(id, round);
    // A whole-word mention only: HM3D0002 must not rewrite part of HM3D00025.
    const mention = new RegExp(`(?<![A-Za-z0-9_])${escapeRe(id)}(?![A-Za-z0-9_])`, 'g');
    for (const f of texts.get(id)!) {
      const base = f.rel.slice(f.rel.lastIndexOf('/') + 1);
      const rel = f.rel.slice(0, f.rel.length - base.length) + base.replace(id, to);
      write(rel, f.text.replace(mention, to));
    }
    sceneIds.push(to);
  }
  return { dir, sceneIds, bytes };
}
