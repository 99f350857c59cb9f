import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyOf } from '../../src/core/records/keys.ts';
import { studio } from '../support/browser.ts';
import { startTeamServer, teamProject, type TeamServer } from '../support/teamServer.ts';

/**
 * The studio's page (served on its own port) talking to the team server on another port, as the
 * browser enforces it: CORS preflights, credentials (a CouchDB session cookie, and Basic
 * authentication), and the server's refusals reaching the page with their reasons.
 */
describe('the studio reaches the team server across origins', () => {
  const { profile, url } = studio();
  let server: TeamServer;
  beforeAll(async () => {
    // The studio's page is on its own port: the server lets that origin in, as a lead would with --origin.
    server = await startTeamServer(['--in-memory', '--origin', new URL(url()).origin]);
    await teamProject(server, 'proj', ['alice']);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('signs in with a session cookie, reads, writes her label, and sees a forged one refused with the reason', async () => {
    const page = await profile.page(url());
    expect(new URL(page.url()).origin).not.toBe(new URL(server.url).origin);
    const label = (author: string) => ({
      _id: keyOf.label('A', 'HUMAN', 'n1|n2', 'alice'),
      order: 0,
      author,
      at: '2026-11-23T10:00:00Z',
      value: { traversable: true, note: '', annotator: 'alice' },
    });
    const result = await page.evaluate(
      async ({ base, mine, forged }) => {
        const json = { 'content-type': 'application/json' };
        const login = await fetch(`${base}_session`, {
          method: 'POST',
          credentials: 'include',
          headers: json,
          body: JSON.stringify({ name: 'alice', password: 'alice-pw' }),
        });
        const read = await fetch(`${base}proj/_all_docs`, { credentials: 'include' });
        const write = await fetch(`${base}proj/${encodeURIComponent(mine._id)}`, {
          method: 'PUT',
          credentials: 'include',
          headers: json,
          body: JSON.stringify(mine),
        });
        const refused = await fetch(`${base}proj/${encodeURIComponent(forged._id)}`, {
          method: 'PUT',
          credentials: 'include',
          headers: json,
          body: JSON.stringify({ ...forged, _id: forged._id.replace('n1|n2', 'n2|n3') }),
        });
        const basic = await fetch(`${base}proj/${encodeURIComponent(mine._id)}`, { headers: { authorization: `Basic ${btoa('alice:alice-pw')}` } });
        const anonymous = await fetch(`${base}proj/_all_docs`);
        return {
          login: [login.status, ((await login.json()) as { name?: string }).name],
          read: read.status,
          write: write.status,
          refused: [refused.status, ((await refused.json()) as { reason?: string }).reason],
          basic: [basic.status, ((await basic.json()) as { author?: string }).author],
          anonymous: anonymous.status,
        };
      },
      { base: server.url, mine: label('alice'), forged: label('bob') },
    );
    expect(result).toEqual({
      login: [200, 'alice'],
      read: 200,
      write: 201,
      refused: [403, expect.stringContaining('the record is signed as bob, but you are alice')],
      basic: [200, 'alice'],
      anonymous: 401,
    });
  });
});
