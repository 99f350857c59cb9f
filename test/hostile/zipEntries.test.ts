import { unzipSync } from 'fflate';
import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qaZip } from '../../src/features/qa/app/qaFiles.ts';
import { releaseZip } from '../../src/services/exportRelease.ts';
import type { Project } from '../../src/core/project.ts';
import { assembleProject } from '../../src/core/records/assemble.ts';
import { projectRecords } from '../../src/core/records/records.ts';
import { capnavItemsForScene } from '../../src/core/vqa/capnav.ts';
import { addReview } from '../../src/core/vqa/review.ts';
import { BUNDLE_FORMAT, readBundle } from '../../src/formats/bundle.ts';
import { UnsafeZipEntryError, zipPieces } from '../../src/formats/zip.ts';
import { scoringHouse } from '../support/scoreSupport.ts';

const AT = '2026-05-01T10:00:00.000Z';
const SLIP = '../../../../tmp/zipslip';

/** The scoring house with its scene renamed and one CapNav question accepted as a QA item (so the QA bundle names the scene too). */
function houseWithScene(id: string, name = 'scoring house'): Project {
  const p = scoringHouse();
  p.name = name;
  p.scenes[0] = { ...p.scenes[0]!, id };
  const [item] = capnavItemsForScene(p, id, { createdAt: AT, generator: 'CapNav release' });
  p.qa.items.push(addReview(item!, { reviewer: 'ana', verdict: 'accept', comment: '', timeMs: 1000, at: AT }));
  return p;
}

/** Where a naive extractor (join the entry name to its folder, write) would put each entry, and whether that is inside the folder. */
function escapes(bytes: Uint8Array): string[] {
  const base = resolve('/extract/here');
  return Object.keys(unzipSync(bytes)).filter(
    (name) =>
      !resolve(join(base, name)).startsWith(base + sep) ||
      name.includes('\\') ||
      /^[A-Za-z]:/.test(name) ||
      /[\u0000-\u001f]/.test(name) ||
      name.startsWith('/'),
  );
}

describe('zips of a project whose scene id is a path out of the folder', () => {
  it('the release zip is refused, naming the scene and the entry', () => {
    expect(() => releaseZip(houseWithScene(SLIP))).toThrow(UnsafeZipEntryError);
    expect(() => releaseZip(houseWithScene(SLIP))).toThrow(
      `the zip entry "scoring-house/graphs/${SLIP}-graph.json" (scene "${SLIP}") has a ".." segment, which leads out of its folder; nothing was exported`,
    );
  });

  it('the QA bundle zip is refused, naming the scene and the entry', () => {
    expect(() => qaZip(houseWithScene(SLIP), AT)).toThrow(`the zip entry "scoring-house-qa/capnav/${SLIP}_QA.json" (scene "${SLIP}") has a ".." segment`);
  });

  it.each([
    ['an absolute path', '/etc/cron.d/x'],
    ['a Windows path', '..\\..\\evil'],
    ['a drive letter', 'C:'],
    ['a NUL character', 'house\u0000.json'],
    ['a line break', 'house\nx'],
  ])('a scene id with %s gives a zip with only safe names, or none', (_what, id) => {
    for (const make of [
      () => releaseZip(houseWithScene(id)).bytes,
      () => {
        const z = qaZip(houseWithScene(id), AT);
        if (!z.ok) throw new Error('refused');
        return z.bytes;
      },
    ]) {
      let bytes: Uint8Array | null = null;
      try {
        bytes = make();
      } catch (e) {
        expect(e).toBeInstanceOf(UnsafeZipEntryError);
        expect(String(e)).toContain(`(scene ${JSON.stringify(id)})`);
      }
      if (bytes) expect(escapes(bytes)).toEqual([]);
    }
  });

  it('a safe project zips with only safe relative names, even when the project is called ".."', () => {
    for (const name of ['scoring house', '..', '../../etc']) {
      const release = releaseZip(houseWithScene('HOUSE01', name));
      const qa = qaZip(houseWithScene('HOUSE01', name), AT);
      expect(qa.ok).toBe(true);
      for (const bytes of [release.bytes, qa.ok ? qa.bytes : new Uint8Array()]) {
        const names = Object.keys(unzipSync(bytes));
        expect(names.length).toBeGreaterThan(1);
        expect(escapes(bytes)).toEqual([]);
        expect(names.every((n) => !n.startsWith('.'))).toBe(true);
      }
    }
  });
});

describe('a scene id that is a path is refused where it comes in', () => {
  it('a bundle naming such a scene is not imported; the problem names the file and where in it', () => {
    for (const id of [SLIP, 'a/b', '..', 'x\\y']) {
      const file = {
        path: 'evil.traversa.json',
        text: JSON.stringify({ format: BUNDLE_FORMAT, version: 1, project: houseWithScene('HOUSE01') }).replace('"id":"HOUSE01"', `"id":${JSON.stringify(id)}`),
      };
      const { project, problems } = readBundle(file);
      expect(project, id).toBeNull();
      expect(problems).toEqual([expect.objectContaining({ severity: 'fatal', file: 'evil.traversa.json' })]);
      expect(problems[0]!.message).toContain(`damaged at scenes.0.id: a scene id becomes part of file names; ${JSON.stringify(id)}`);
    }
  });

  it('stored or synced records of such a scene are set aside with the reason; the rest of the project opens', () => {
    const recs = projectRecords(houseWithScene(SLIP));
    const { project, bad } = assembleProject(recs);
    expect(project!.scenes).toEqual([]);
    expect(project!.qa.items).toHaveLength(1);
    const sceneRecs = recs.filter((r) => r.key.includes('..%2F'));
    expect(sceneRecs.length).toBeGreaterThan(1);
    expect(bad).toEqual(sceneRecs.map((r) => ({ key: r.key, reason: `the scene id "${SLIP}" contains a folder separator (/ or \\)` })));
  });

  it("a zip written a piece at a time (the training split) checks its names the same way and refuses pieces out of its entries' order", async () => {
    const bytes = (t: string) => new TextEncoder().encode(t);
    const pieces = (list: [string, string][]) => list.map(([path, t]) => ({ path, bytes: bytes(t) }))[Symbol.iterator]();
    const pause = async () => {};
    const ok = await zipPieces(
      null,
      ['a.jsonl', 'b.jsonl', 'c.json'],
      pieces([
        ['a.jsonl', '1\n'],
        ['a.jsonl', '2\n'],
        ['c.json', '{}'],
      ]),
      pause,
    );
    const files = unzipSync(ok);
    expect(Object.keys(files)).toEqual(['a.jsonl', 'b.jsonl', 'c.json']);
    expect(new TextDecoder().decode(files['a.jsonl'])).toBe('1\n2\n');
    expect(files['b.jsonl']).toHaveLength(0);
    expect(escapes(ok)).toEqual([]);
    await expect(zipPieces(null, [SLIP], pieces([]), pause)).rejects.toThrow(UnsafeZipEntryError);
    await expect(zipPieces('split', ['a.jsonl', 'a.jsonl'], pieces([]), pause)).rejects.toThrow(/two files would be the zip entry "split\/a.jsonl"/);
    await expect(
      zipPieces(
        null,
        ['a.jsonl', 'b.jsonl'],
        pieces([
          ['b.jsonl', 'x'],
          ['a.jsonl', 'y'],
        ]),
        pause,
      ),
    ).rejects.toThrow(/a piece of "a.jsonl" came out of the entries' order/);
  });
});
