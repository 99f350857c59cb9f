import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../../src/core/project.ts';
import { keyOf } from '../../../src/core/records/keys.ts';
import { readJsonFiles } from '../../../src/cli/files.ts';
import { readRelease } from '../../../src/formats/capnav/read.ts';
import { traversa } from '../../support/cli.ts';
import { withResolvedRefsAsIds } from '../../support/projects.ts';
import { houseScene, releaseFiles, writeReleaseDir } from '../../support/releaseBuilder.ts';
import { CAPNAV_DIR, sharedAvailable } from '../../support/shared.ts';
import { ADMIN, couch, startTeamServer, teamProject, traversaWith, type TeamServer } from '../../support/teamServer.ts';

const read = (dir: string): Project => {
  const { project, problems } = readRelease(readJsonFiles(dir), 'release');
  expect(problems.filter((p) => p.severity === 'fatal')).toEqual([]);
  return project!;
};
/** A push's table row for one kind: [written, unchanged, refused]. */
const row = (stdout: string, kind: string) => (new RegExp(`^${kind}\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)$`, 'm').exec(stdout) ?? []).slice(1).map(Number);

describe('push and pull through a team database', { timeout: 120_000 }, () => {
  let server: TeamServer;
  const dirs: string[] = [];
  const tmp = (prefix: string) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  let releaseDir: string;
  beforeAll(async () => {
    server = await startTeamServer();
    await teamProject(server, 'house', ['alice', 'bob'], ['mallory']);
    releaseDir = writeReleaseDir(releaseFiles([houseScene('A'), houseScene('B')]));
    dirs.push(releaseDir);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('the admin pushes a release, a member pulls it back the same; pushing again writes nothing', async () => {
    const first = await traversa('push', releaseDir, '--to', server.admin('house'));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`pushed to ${server.url}house as ${ADMIN.name}`);
    const labels = row(first.stdout, 'label');
    expect(labels[0]).toBeGreaterThan(0);
    expect(labels.slice(1)).toEqual([0, 0]);
    expect(row(first.stdout, 'scene')).toEqual([2, 0, 0]);
    expect(first.stdout + first.stderr).not.toContain(ADMIN.password);

    const out = tmp('traversa-pulled-');
    const pulled = await traversa('pull', '--from', server.as('alice', 'alice-pw', 'house'), '--out', out);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toMatch(/^pulled \d+ records from .*house: 2 scenes, \d+ labels, 0 QA items; 0 bad, 0 in conflict$/m);
    expect(read(out)).toEqual(withResolvedRefsAsIds(read(releaseDir)));

    const again = await traversa('push', releaseDir, '--to', server.admin('house'));
    expect(again.code).toBe(0);
    const total = row(again.stdout, 'total');
    expect(total[0]).toBe(0);
    expect(total[1]).toBeGreaterThan(0);
    expect(total[2]).toBe(0);
  });

  it("a member's push of the release is refused where it would write unnamed labels, each listed with the server's reason", async () => {
    const edited = writeReleaseDir(
      releaseFiles([houseScene('A'), houseScene('B')]).map((f) =>
        f.path.includes('traverse/A') ? { ...f, text: f.text.replace(/"traversable": true/, '"traversable": false') } : f,
      ),
    );
    dirs.push(edited);
    const res = await traversaWith({ TRAVERSA_COUCH_USER: 'bob', TRAVERSA_COUCH_PASSWORD: 'bob-pw' }, 'push', edited, '--to', `${server.url}house`);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('as bob');
    expect(row(res.stdout, 'label')[2]).toBe(1);
    expect(res.stdout).toMatch(
      /^refused label\/A\/\w+\/node_\w+\|node_\w+\/: forbidden: .*unnamed labels \(a release baseline\) are written by an admin only$/m,
    );
    expect(res.stdout + res.stderr).not.toContain('bob-pw');
  });

  it('refuses to push a release that cannot be read, with the problems, before asking the server anything', async () => {
    const broken = writeReleaseDir([{ path: 'graphs/A-graph.json', text: '{ "nodes": [ }' }]);
    dirs.push(broken);
    const res = await traversa('push', broken, '--to', server.admin('house'));
    expect(res.code).toBe(1); // the documented code for a release that cannot be read
    expect(res.stderr).toContain('graphs/A-graph.json');
    expect(res.stderr).toContain('cannot be read as a CapNav release');
  });

  it('says who was refused and why: a wrong password, an outsider, nobody signed in', async () => {
    const wrong = await traversa('pull', '--from', server.as('alice', 'not-her-password', 'house'), '--out', tmp('traversa-pulled-'));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`the team database ${server.url}house refused user alice while reading the project: wrong name or password`);
    expect(wrong.stderr).not.toContain('not-her-password');
    const outsider = await traversa('push', releaseDir, '--to', server.as('mallory', 'mallory-pw', 'house'));
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toContain('refused user mallory while reading what the database holds: not a member of house');
    const anonymous = await traversa('pull', '--from', `${server.url}house`, '--out', tmp('traversa-pulled-'));
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toContain('refused an anonymous request while reading the project');
  });

  it('pull names a document whose revisions conflict, and bad records, instead of resolving them', async () => {
    expect((await traversa('team', 'create-project', server.admin('branches'), '--member', 'bob')).code).toBe(0);
    expect((await traversa('push', releaseDir, '--to', server.admin('branches'))).code).toBe(0);
    const id = keyOf.node('A', 'node_1');
    const current = await couch(server, 'bob', 'GET', `branches/${encodeURIComponent(id)}`);
    expect(current.status).toBe(200);
    // A second branch of the document, as a replication from another server would bring it.
    const sibling = { ...current.json, _rev: '1-00000000000000000000000000000abc', value: { ...(current.json.value as object), name: 'Hall (offline edit)' } };
    const written = await couch(server, ADMIN.name, 'POST', 'branches/_bulk_docs', { docs: [sibling], new_edits: false });
    expect(written.status).toBe(201);
    const broken = { _id: keyOf.node('A', 'node_99'), order: 9, value: { id: 'node_99', position: { x: 0, y: 0, z: 0 } }, author: ADMIN.name, at: 'now' };
    expect((await couch(server, ADMIN.name, 'PUT', `branches/${encodeURIComponent(broken._id)}`, broken)).status).toBe(201);

    const res = await traversa('pull', '--from', server.as('bob', 'bob-pw', 'branches'), '--out', tmp('traversa-pulled-'));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(`^conflict ${id.replace(/\|/g, '\\|')}: 2 revisions \\(.*1-00000000000000000000000000000abc.*\\); the winning one was read$`, 'm'),
    );
    expect(res.stdout).toMatch(/1 in conflict/);
    expect(res.stdout).toMatch(/^bad record node\/A\/node_99: name: /m);
  });

  it('a label for agent __proto__ is refused by the server, and one already stored is pulled as a bad record, every other label intact (issue 25 §2)', async () => {
    expect((await traversa('team', 'create-project', server.admin('proto'), '--member', 'bob')).code).toBe(0);
    expect((await traversa('push', releaseDir, '--to', server.admin('proto'))).code).toBe(0);
    const key = keyOf.label('A', '__proto__', 'node_1|node_2', 'bob');
    const forged = { _id: key, order: 0, value: { traversable: true, note: '', annotator: 'bob' }, author: 'bob', at: '2026-11-29T06:00:00Z' };
    const refused = await couch(server, 'bob', 'PUT', `proto/${encodeURIComponent(key)}`, forged);
    expect(refused.status).toBe(403);
    expect(refused.json.reason).toMatch(/"__proto__" may not be an id, an agent or a name in a record key/);
    // As a server without the validation (or an older one) would hold it.
    expect((await couch(server, ADMIN.name, 'PUT', `proto/${encodeURIComponent(key)}`, forged)).status).toBe(201);
    const out = tmp('traversa-pulled-');
    const res = await traversa('pull', '--from', server.as('bob', 'bob-pw', 'proto'), '--out', out);
    expect(res.stdout).toMatch(/; 1 bad, 0 in conflict$/m);
    expect(res.stdout).toContain(`bad record ${key}: "__proto__" may not be`);
    expect(read(out)).toEqual(withResolvedRefsAsIds(read(releaseDir)));
  });

  it('pull says what a release cannot hold (every annotator’s label of a segment) and names files an earlier pull left', async () => {
    expect((await traversa('team', 'create-project', server.admin('votes'), '--member', 'alice', '--member', 'bob')).code).toBe(0);
    expect((await traversa('push', releaseDir, '--to', server.admin('votes'))).code).toBe(0);
    const edge = read(releaseDir).scenes[0]!.graph.edges[0]!;
    for (const [who, traversable] of [
      ['alice', true],
      ['bob', false],
    ] as const) {
      const id = keyOf.label('A', 'SWEEPER', `${edge.from}|${edge.to}`, who);
      const doc = { _id: id, order: 0, value: { traversable, note: traversable ? '' : 'rug', annotator: who }, author: who, at: '2026-11-23T10:00:00Z' };
      expect((await couch(server, who, 'PUT', `votes/${encodeURIComponent(id)}`, doc)).status).toBe(201);
    }
    const out = tmp('traversa-pulled-');
    mkdirSync(join(out, 'graphs'));
    writeFileSync(join(out, 'graphs', 'Z-graph.json'), '{"nodes": [], "edges": []}');
    const res = await traversa('pull', '--from', server.as('alice', 'alice-pw', 'votes'), '--out', out);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^the release holds the \d+ labels in force; all \d+ annotators' labels stay in the database$/m);
    expect(res.stdout).toContain(`note: graphs/Z-graph.json was already in ${out} and is not part of the pulled project (left as it was)`);
    // The segment the two disagree on is in force as the earliest named label, alice's.
    const sweeper = read(out).scenes.find((s) => s.id === 'A')!.labels.SWEEPER![`${edge.from}|${edge.to}`]!;
    expect(sweeper).toMatchObject({ traversable: true, annotator: 'alice' });
  });

  it.skipIf(!sharedAvailable(CAPNAV_DIR, 'pushing and pulling the real CapNav release'))('round-trips the real 30-scene release', async () => {
    const res = await traversa('team', 'create-project', server.admin('capnav'), '--member', 'alice');
    expect(res.code).toBe(0);
    const push = await traversa('push', CAPNAV_DIR, '--to', server.admin('capnav'));
    expect(push.code).toBe(0);
    expect(row(push.stdout, 'scene')).toEqual([30, 0, 0]);
    const out = tmp('traversa-capnav-');
    const pull = await traversa('pull', '--from', server.as('alice', 'alice-pw', 'capnav'), '--out', out);
    expect(pull.code).toBe(0);
    expect(pull.stdout).toContain('30 scenes');
    expect(read(out)).toEqual(withResolvedRefsAsIds(read(CAPNAV_DIR)));
    const again = await traversa('push', CAPNAV_DIR, '--to', server.admin('capnav'));
    expect(row(again.stdout, 'total')[0]).toBe(0);
  });
});
