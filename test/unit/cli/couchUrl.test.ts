import { describe, expect, it } from 'vitest';
import { parseCouchUrl, redactUrl } from '../../../src/cli/couchClient.ts';

describe('where a team database is, and as whom', () => {
  it('takes the credentials out of the URL, decoded, and keeps the database name apart', () => {
    expect(parseCouchUrl('http://alice:p%40ss%2Fw@127.0.0.1:5984/house', {}, 'db', 'url')).toEqual({
      server: 'http://127.0.0.1:5984/',
      db: 'house',
      user: 'alice',
      password: 'p@ss/w',
    });
  });

  it('reads the credentials from the environment when the URL has none, and a password alone when it names the user', () => {
    const env = { TRAVERSA_COUCH_USER: 'bob', TRAVERSA_COUCH_PASSWORD: 'bob-pw' };
    expect(parseCouchUrl('http://127.0.0.1:5984/house', env, 'db', 'url')).toMatchObject({ user: 'bob', password: 'bob-pw' });
    expect(parseCouchUrl('http://alice@127.0.0.1:5984/house', env, 'db', 'url')).toMatchObject({ user: 'alice', password: 'bob-pw' });
    expect(parseCouchUrl('http://127.0.0.1:5984/house', {}, 'db', 'url')).toMatchObject({ user: undefined, password: undefined });
  });

  it('finds the database behind a path prefix (a CouchDB behind a proxy) and refuses names CouchDB would', () => {
    expect(parseCouchUrl('https://example.org/couch/house/', {}, 'db', 'url')).toMatchObject({ server: 'https://example.org/couch/', db: 'house' });
    expect(parseCouchUrl('http://h:5984', {}, 'server', 'url').server).toBe('http://h:5984/');
    expect(() => parseCouchUrl('http://h:5984/House', {}, 'db', '--to')).toThrow(/"House" is not a CouchDB database name/);
    expect(() => parseCouchUrl('http://h:5984/', {}, 'db', '--to <couch-url>/<db>')).toThrow(/must end in the database's name/);
    expect(() => parseCouchUrl('ftp://h/x', {}, 'db', '--to')).toThrow(/http:\/\/ or https:\/\//);
  });

  it('never shows a password in a message', () => {
    expect(redactUrl('http://alice:secret@h:5984/house')).toBe('http://alice:***@h:5984/house');
    expect(() => parseCouchUrl('http://alice:secret@[bad', {}, 'db', 'url')).toThrow(/^url is not a URL: http:\/\/alice:\*\*\*@\[bad$/);
  });
});
