import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { persistentSessionCookie } from '../../../src/cli/teamFront.ts';
import { couch, startTeamServer, teamProject, type TeamServer } from '../../support/teamServer.ts';

/**
 * Issue 24 §5: the studio signs in with a cookie session (`POST _session`) instead of sending a
 * password on every request, and stays signed in across a browser restart until the session
 * expires — as with CouchDB 3, whose cookie carries Max-Age and whose secret outlives a restart.
 */
describe('cookie sessions on the team server', { timeout: 90_000 }, () => {
  const data = mkdtempSync(join(tmpdir(), 'traversa-cookie-'));
  let server: TeamServer | null = null;
  afterAll(async () => {
    await server?.stop();
    rmSync(data, { recursive: true, force: true });
  });

  it('the front gives the sign-in cookie a lifetime and a SameSite, and leaves other cookies and a sign-out alone', () => {
    expect(persistentSessionCookie('AuthSession=abc; Path=/; HttpOnly', 600)).toBe('AuthSession=abc; Path=/; HttpOnly; Max-Age=600; SameSite=Lax');
    expect(persistentSessionCookie(['other=1', 'AuthSession=abc; Path=/; SameSite=Strict'], 60)).toEqual([
      'other=1',
      'AuthSession=abc; Path=/; SameSite=Strict; Max-Age=60',
    ]);
    const signOut = 'AuthSession=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly';
    expect(persistentSessionCookie(signOut, 600)).toBe(signOut);
  });

  const signIn = async () => {
    const res = await fetch(`${server!.url}_session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'amy', password: 'amy-pw' }),
    });
    expect(res.status).toBe(200);
    return res.headers.get('set-cookie')!;
  };
  const who = async (cookie: string) => (await couch(server!, null, 'GET', '_session', undefined, { cookie })).json.userCtx as { name: string | null };

  it('a session lasts --session-timeout from its last use, survives a restart of the server on the same data, then ends', async () => {
    server = await startTeamServer(['--data', data, '--session-timeout', '3']);
    await teamProject(server, 'house', ['amy']);
    const header = await signIn();
    expect(header).toMatch(/^AuthSession=[^;]+; Path=\/; HttpOnly; Max-Age=3; SameSite=Lax$/);
    const cookie = header.split(';')[0]!;
    expect((await who(cookie)).name).toBe('amy');
    // The cookie reads her project, as her password does.
    expect((await couch(server, null, 'GET', 'house', undefined, { cookie })).status).toBe(200);

    const port = Number(new URL(server.url).port);
    await server.stop();
    server = await startTeamServer(['--data', data, '--session-timeout', '3'], null, port);
    const fresh = (await signIn()).split(';')[0]!;
    expect((await who(fresh)).name).toBe('amy');
    await new Promise((r) => setTimeout(r, 4_000));
    // Expired: anonymous again, and refused the project (the studio then asks for the password).
    expect((await who(fresh)).name).toBeNull();
    expect((await couch(server, null, 'GET', 'house', undefined, { cookie: fresh })).status).toBe(401);
  });

  it('a cookie from before the restart is still good afterwards', async () => {
    const before = (await signIn()).split(';')[0]!;
    const port = Number(new URL(server!.url).port);
    await server!.stop();
    server = await startTeamServer(['--data', data, '--session-timeout', '30'], null, port);
    expect((await who(before)).name).toBe('amy');
  });

  it('a session timeout that is not a number of seconds is refused', async () => {
    const r = await startTeamServer(['--in-memory', '--session-timeout', 'soon']).then(
      () => 'started',
      (e: Error) => e.message,
    );
    expect(r).toMatch(/--session-timeout must be a whole number of seconds, not "soon"/);
  });
});
