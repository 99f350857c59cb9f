import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionsByCommand } from '../../src/cli/options.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { readPickedText } from '../../src/ui/pickedFiles.ts';
import { houseScene, releaseFiles } from '../support/releaseBuilder.ts';
import { expectOneLineError, LIMIT_MS, run, tempDirs, writeHouse, writeTree } from './support.ts';

// Issue 12, class 12: where the tools drifted from what the README says — exit codes for a release
// that cannot be read, UTF-16 files taken by one reader and refused by the other, unknown options
// silently ignored.

const dirs = tempDirs();
let help = '';
beforeAll(async () => {
  help = (await run('help')).stdout;
});
afterAll(() => dirs.cleanUp());

const BOM = { le: Buffer.from([0xff, 0xfe]), be: Buffer.from([0xfe, 0xff]) };
const utf16 = (text: string, order: 'le' | 'be') => {
  const le = Buffer.from(text, 'utf16le');
  return Buffer.concat([BOM[order], order === 'le' ? le : Buffer.from(le).swap16()]);
};

describe.concurrent('the documented contract', { timeout: 3 * LIMIT_MS }, () => {
  it('an unknown command, even one named like a property of every object, exits 2 and lists the commands', async () => {
    for (const name of ['stat', 'constructor', '__proto__', 'toString']) {
      const r = await run(name);
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`traversa: unknown command "${name}"`);
      expect(r.stderr).toContain('stats <release-dir> [--json]');
    }
  });

  it('stats, plan, convert and validate exit 1 (not 2) when the release cannot be read: missing, not a folder, or broken', async () => {
    const broken = writeTree(dirs.make(), [{ path: 'graphs/A-graph.json', text: '{ "nodes": [ }' }]);
    const file = join(writeHouse(dirs.make()), 'agent_profile.json');
    const missing = join(dirs.make(), 'nowhere');
    for (const command of ['stats', 'plan', 'convert']) {
      const extra = command === 'convert' ? ['--out', join(dirs.make(), 'out')] : [];
      const r = await run(command, broken, ...extra);
      expect(r.code, `${command} ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain(`traversa: ${broken} cannot be read as a CapNav release (run "validate" for every problem)`);
      expectOneLineError(await run(command, missing, ...extra), 1, `${missing}: the release cannot be read (it does not exist)`);
      expectOneLineError(await run(command, file, ...extra), 1, `${file}: the release cannot be read (not a folder)`);
    }
    expect((await run('validate', broken)).code).toBe(1);
    expectOneLineError(await run('stats'), 2, 'missing <release-dir>');
  });

  it('UTF-16 files with a byte-order mark (little or big endian) are read by the command line, and convert writes UTF-8', async () => {
    const files = releaseFiles([houseScene()]);
    const rel = writeTree(
      dirs.make(),
      files.map((f, i) => ({ path: f.path, text: utf16(f.text.replace('Front hall', 'Vorderer Flur – Küche'), i % 2 ? 'be' : 'le') })),
    );
    const v = await run('validate', rel, '--json');
    expect(v.code, v.stderr).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, errors: 0 });
    const out = join(dirs.make(), 'converted');
    expect((await run('convert', rel, '--out', out)).code).toBe(0);
    const graph = readFileSync(join(out, 'graphs', 'HM3D00025-graph.json'));
    expect([...graph.subarray(0, 2)]).not.toEqual([...BOM.le]);
    expect(new TextDecoder('utf-8', { fatal: true }).decode(graph)).toContain('Vorderer Flur – Küche');
    expect(readdirSync(join(out, 'graphs'))).toEqual(['HM3D00025-graph.json']);
  });

  it('the browser reads picked files through the same decoder: UTF-16 taken, Latin-1 refused by file and byte', async () => {
    const files = releaseFiles([houseScene()]);
    const picked = files.map((f, i) => ({ path: `house/${f.path}`, file: new File([utf16(f.text, i % 2 ? 'be' : 'le')], f.path.split('/').pop()!) }));
    const read = await readPickedText(picked);
    expect(read.problems).toEqual([]);
    expect(readRelease(read.files).project?.scenes[0]?.graph.nodes[0]?.name).toBe('Front hall');
    const latin1 = await readPickedText([{ path: 'house/graphs/X-graph.json', file: new File([Buffer.from('{"name": "Café"}', 'latin1')], 'X-graph.json') }]);
    expect(latin1.files).toEqual([]);
    expect(latin1.problems).toEqual([expect.objectContaining({ file: 'house/graphs/X-graph.json', location: 'byte 13', code: 'text.encoding' })]);
  });

  it('an option a command does not take is refused with exit 2, naming it and what the command takes', async () => {
    const rel = writeHouse(dirs.make());
    expectOneLineError(await run('stats', rel, '--jsn'), 2, 'unknown option --jsn: stats takes --json (see "help")');
    expectOneLineError(
      await run('score', '--gt', rel, '--pred', rel, '--out', dirs.make(), '--boostrap', '1000'),
      2,
      'unknown option --boostrap: score takes --gt, --pred, --out',
    );
    expectOneLineError(await run('validate', rel, '--out=x'), 2, 'unknown option --out: validate takes --json');
  });

  it('every option the help lists is one its command takes (the help is where the accepted options come from)', () => {
    const options = optionsByCommand(help);
    expect([...options.keys()].sort()).toEqual([
      'augment',
      'baseline',
      'convert',
      'drive',
      'eval-inputs',
      'leakage',
      'merge',
      'plan',
      'pull',
      'push',
      'reward',
      'run-model',
      'score',
      'score-qa',
      'split',
      'stats',
      'suggest',
      'team',
      'team-server',
      'tour',
      'train-export',
      'validate',
    ]);
    expect([...options.get('eval-inputs')!].sort()).toEqual(['agents', 'frames', 'gt', 'mesh', 'out', 'scans', 'scenes', 'shard', 'up', 'with']);
    expect([...options.get('augment')!].sort()).toEqual(['agents', 'balance', 'budget', 'json', 'out', 'seed']);
    expect([...options.get('split')!].sort()).toEqual(['out', 'ratios', 'seed']);
    expect([...options.get('reward')!].sort()).toEqual(['gt', 'pred', 'weights']);
    expect([...options.get('merge')!].sort()).toEqual(['accept-unjudged', 'gt', 'json', 'out', 'table2']);
    expect([...options.get('train-export')!].sort()).toEqual(['format', 'frames', 'gt', 'manifest', 'out']);
    expect([...options.get('run-model')!].sort()).toEqual([
      'agents',
      'cache',
      'concurrency',
      'endpoint',
      'frames',
      'gt',
      'inputs',
      'json',
      'limit',
      'model',
      'out',
      'retries',
      'scenes',
      'shard',
    ]);
    expect([...options.get('tour')!].sort()).toEqual(['eye', 'fov', 'fps', 'frames', 'graph', 'gt', 'mesh', 'out', 'scans', 'shard', 'size', 'up']);
    expect([...options.get('score')!].sort()).toEqual([
      'accept-unjudged',
      'averaging',
      'bootstrap',
      'cache',
      'compat',
      'gt',
      'json',
      'judge',
      'level',
      'out',
      'pred',
      'seed',
      'shard',
      'table2',
      'verdicts',
      'weights',
    ]);
    expect([...options.get('team-server')!].sort()).toEqual(['admin', 'data', 'host', 'in-memory', 'origin', 'port', 'session-timeout']);
    expect([...options.get('team')!].sort()).toEqual(['lead', 'member', 'password']);
  });
});
