import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { houseScene, releaseFiles } from '../support/releaseBuilder.ts';
import { scoringHouse } from '../support/scoreSupport.ts';
import { expectNoTrace, expectOneLineError, LIMIT_MS, run, tempDirs, writeHouse, writeTree } from './support.ts';

// Issue 12, class 11: inputs that were changed without a word — bytes of another encoding turned
// into U+FFFD (and written back by convert), "__proto__" keys dropped, a model named "__proto__"
// missing from the summary, a scan with NaN coordinates accepted.

const dirs = tempDirs();
beforeAll(async () => {
  await run('help');
});
afterAll(() => dirs.cleanUp());

const GRAPH = 'graphs/HM3D00025-graph.json';
const TRAVERSE = 'traverse/HM3D00025-traverse.json';

describe.concurrent('nothing changed without a word', { timeout: 3 * LIMIT_MS }, () => {
  it('a Latin-1 release file is refused with its byte offset; convert writes nothing', async () => {
    const rel = writeHouse(dirs.make());
    const text = readFileSync(join(rel, GRAPH), 'utf8').replace('Front hall', 'Café hall');
    writeFileSync(join(rel, GRAPH), Buffer.from(text, 'latin1'));
    const offset = Buffer.from(text, 'latin1').indexOf(0xe9);
    for (const command of ['validate', 'stats']) {
      expectOneLineError(
        await run(command, rel),
        1,
        `${join(rel, GRAPH)} byte ${offset}: fatal: not valid UTF-8; save the file as UTF-8, or as UTF-16 with a byte-order mark`,
      );
    }
    const out = join(dirs.make(), 'converted');
    expectOneLineError(await run('convert', rel, '--out', out), 1, `byte ${offset}`);
    expect(existsSync(out)).toBe(false);
  });

  it('a prediction file with a cut UTF-8 sequence is refused by file and byte, not scored with U+FFFD', async () => {
    const gt = writeTree(dirs.make(), writeRelease(scoringHouse()));
    const pred = join(dirs.make(), 'p.jsonl');
    const line = Buffer.from('{"model": "m", "scene": "HOUSE01", "questionIndex": 0, "agent": "HUMAN", "answer": "yes", "reason": "a ');
    writeFileSync(pred, Buffer.concat([line, Buffer.from([0xe2, 0x82]), Buffer.from('"}\n')]));
    expectOneLineError(await run('score', '--gt', gt, '--pred', pred, '--out', dirs.make()), 1, `${pred} byte ${line.length}: fatal: not valid UTF-8`);
  });

  it('a "__proto__" key in a node or a traverse table is reported by file and pointer, and pollutes nothing', async () => {
    /** The house with "__proto__" keys in a node of its graph, in its traverse table, or both. */
    const withProto = (inGraph: boolean, inTraverse: boolean) =>
      releaseFiles([houseScene()]).map((f) => ({
        path: f.path,
        text:
          f.path === GRAPH && inGraph
            ? f.text.replace('"name": "Front hall"', '"name": "Front hall", "__proto__": { "polluted": true }')
            : f.path === TRAVERSE && inTraverse
              ? f.text.replace('"HUMAN": {', '"HUMAN": { "__proto__": { "traversable": true, "note": "slipped in" },')
              : f.text,
      }));
    const [v1, v2] = await Promise.all([
      run('validate', writeTree(dirs.make(), withProto(true, false))),
      run('validate', writeTree(dirs.make(), withProto(false, true))),
    ]);
    expectNoTrace(v1);
    expect(v1.code).toBe(1);
    expect(v1.stdout).toContain(
      `${GRAPH} /nodes/0/__proto__: fatal: the key "__proto__" cannot be kept (objects would drop it or take it as their prototype); rename or remove it`,
    );
    expect(v2.code).toBe(1);
    expect(v2.stdout).toContain(`${TRAVERSE} /HUMAN/__proto__: fatal: the key "__proto__"`);

    // The same files read in this process: refused, and no object gained a "polluted" field.
    for (const [inGraph, inTraverse, at] of [
      [true, false, `${GRAPH} /nodes/0/__proto__`],
      [false, true, `${TRAVERSE} /HUMAN/__proto__`],
    ] as const) {
      const read = readRelease(withProto(inGraph, inTraverse));
      expect(read.project).toBeNull();
      expect(read.problems.filter((p) => p.code === 'json.reserved-key').map((p) => `${p.file} ${p.location}`)).toEqual([at]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a model named "__proto__" is scored and kept in the summary and the table', async () => {
    const gt = writeTree(dirs.make(), writeRelease(scoringHouse()));
    const pred = join(dirs.make(), 'p.jsonl');
    writeFileSync(
      pred,
      ['__proto__', 'constructor', 'plain']
        .map((model) => JSON.stringify({ model, scene: 'HOUSE01', questionIndex: 0, agent: 'HUMAN', answer: 'yes', path: ['hall', 'kitchen'], reason: '' }))
        .join('\n') + '\n',
    );
    const out = dirs.make();
    const r = await run('score', '--gt', gt, '--pred', pred, '--out', out);
    expect(r).toMatchObject({ code: 0, timedOut: false });
    expect(r.stdout).toContain('== __proto__ ==');
    const summary = JSON.parse(readFileSync(join(out, 'scored_summary.json'), 'utf8')) as { models: Record<string, { counts: { records: number } }> };
    expect(Object.keys(summary.models)).toEqual(['__proto__', 'constructor', 'plain']);
    expect(Object.hasOwn(summary.models, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(summary.models, '__proto__')!.value).toMatchObject({ counts: { records: 1 } });
  });

  it('a PLY scan with a NaN or infinite coordinate is refused with the vertex, not measured', async () => {
    const dir = dirs.make();
    const header = (format: string) =>
      [
        'ply',
        `format ${format} 1.0`,
        'element vertex 4',
        'property float x',
        'property float y',
        'property float z',
        'element face 2',
        'property list uchar int vertex_indices',
        'end_header',
        '',
      ].join('\n');
    writeFileSync(join(dir, 'nan.ply'), header('ascii') + ['0 0 0', '1 0 0', '1 nan 1', '0 0 1', '3 0 1 2', '3 0 2 3', ''].join('\n'));
    // Binary, where a float can hold infinity itself (ASCII "inf" already reads as NaN).
    const body = Buffer.alloc(4 * 12 + 2 * 13);
    [0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, -Infinity].forEach((v, i) => body.writeFloatLE(v, i * 4));
    [
      [0, 1, 2],
      [0, 2, 3],
    ].forEach((f, i) => {
      body.writeUInt8(3, 48 + i * 13);
      f.forEach((v, k) => body.writeInt32LE(v, 48 + i * 13 + 1 + k * 4));
    });
    writeFileSync(join(dir, 'inf.ply'), Buffer.concat([Buffer.from(header('binary_little_endian'), 'latin1'), body]));
    writeFileSync(join(dir, 'g-graph.json'), JSON.stringify({ nodes: [{ id: 'a', name: 'A', position: { x: 0, y: 0, z: 0 } }], edges: [] }));
    const [nan, inf] = await Promise.all(['nan.ply', 'inf.ply'].map((m) => run('suggest', '--mesh', join(dir, m), '--graph', join(dir, 'g-graph.json'))));
    expectOneLineError(nan!, 1, 'nan.ply: vertex 2 has y = NaN: coordinates must be finite numbers');
    expectOneLineError(inf!, 1, 'inf.ply: vertex 3 has z = -Infinity: coordinates must be finite numbers');
  });
});
