import { spawn, type ChildProcess } from 'node:child_process';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { Couch } from './couchClient.ts';
import { startFront } from './teamFront.ts';
import { CliError, InputError } from './files.ts';
import { newPassword } from './team.ts';

/**
 * `npm run team-server`: a CouchDB-compatible server for a small team or a test, run by
 * pouchdb-server (express-pouchdb) as a child process. In memory, or on disk with `--data <dir>`
 * through LevelDB: pouchdb-server's `leveldown` ships a prebuilt N-API binary for linux-x64 inside
 * its npm package, so it loads without its install script, which the project's .npmrc turns off. The server
 * is locked from the first request: its admin is written (hashed) into the config file before it
 * starts, so it never runs as an open "admin party". Its log goes to a file, not the terminal.
 * The child (teamServerChild.mjs) ends with its parent and mends pouchdb-server's dropping of
 * replicated writes in validated databases.
 */
export interface TeamServerOptions {
  port: number;
  host: string;
  /** Where the databases live; absent: in memory, gone when the server stops. */
  data: string | undefined;
  admin: { name: string; password: string } | undefined;
  /** Browser origins allowed to use the server with credentials; empty: any origin. */
  origins: string[];
  /** Seconds a sign-in cookie lasts without use (CouchDB's `[chttpd_auth] timeout`); default 600, or what the data's config says. */
  sessionTimeoutS?: number;
}

/** CouchDB's default: a sign-in cookie lasts ten minutes from its last use. */
export const SESSION_TIMEOUT_S = 600;

export interface RunningTeamServer {
  url: string;
  adminName: string;
  /** Set when the admin's password was generated now (the only time anyone can see it). */
  generatedPassword: string | undefined;
  /** Where the server's own log goes. */
  logFile: string;
  /** Resolves when the server has stopped: stopped on request (0), or pouchdb-server kept failing (its exit code). */
  exited: Promise<number | null>;
  /** The last lines pouchdb-server printed (errors that never reach its log). */
  output(): string;
  /** pouchdb-server's process id now (it is restarted when it stops), or null while it is down. */
  pid(): number | null;
  stop(): Promise<void>;
}

/**
 * The script that runs pouchdb-server in the child (teamServerChild.mjs): found by walking up from
 * this module, which is src/cli/ when run from source and node_modules/.cache/ when bundled.
 */
function childScript(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    for (const candidate of [join(dir, 'teamServerChild.mjs'), join(dir, 'src', 'cli', 'teamServerChild.mjs')]) if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new CliError('src/cli/teamServerChild.mjs is missing from the Traversa folder');
  }
}

/** An admin password as CouchDB and pouchdb-auth store it (PBKDF2-SHA1; pouchdb-auth's 10 rounds). */
function hashAdminPassword(password: string): string {
  const salt = randomBytes(16).toString('hex');
  return `-pbkdf2-${pbkdf2Sync(password, salt, 10, 20, 'sha1').toString('hex')},${salt},10`;
}

function pouchdbServerBin(): string {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('pouchdb-server/package.json')), 'bin', 'pouchdb-server');
  } catch {
    throw new CliError('pouchdb-server is not installed: run "npm ci" in the Traversa folder');
  }
}

/** Whether something already listens on host:port (pouchdb-server would only log the clash). */
function portTaken(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(true));
    probe.listen(port, host, () => probe.close(() => done(false)));
  });
}

type Config = Record<string, Record<string, unknown>>;

function writeConfig(file: string, opts: TeamServerOptions): { adminName: string; generatedPassword: string | undefined; sessionTimeoutS: number } {
  const config: Config = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Config) : {};
  const admins = (config.admins ??= {});
  let adminName: string, generatedPassword: string | undefined;
  if (opts.admin) {
    adminName = opts.admin.name;
    admins[adminName] = hashAdminPassword(opts.admin.password);
  } else if (Object.keys(admins).length) {
    adminName = Object.keys(admins).join(', ');
  } else {
    adminName = 'admin';
    generatedPassword = newPassword();
    admins[adminName] = hashAdminPassword(generatedPassword);
  }
  config.log = { ...config.log, file: join(dirname(file), 'log.txt') };
  // Sign-in cookies stay good across restarts (of the child and of the server on the same data):
  // the secret that signs them is kept with the data, not drawn anew by each pouchdb-server.
  const auth = (config.couch_httpd_auth ??= {});
  if (typeof auth.secret !== 'string' || auth.secret.length < 32) auth.secret = randomBytes(32).toString('hex');
  auth.timeout = opts.sessionTimeoutS ?? (Number(auth.timeout) > 0 ? Number(auth.timeout) : SESSION_TIMEOUT_S);
  // The front answers CORS (teamFront.ts); pouchdb-server is reached only through it.
  config.httpd = { ...config.httpd, enable_cors: false };
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
  return { adminName, generatedPassword, sessionTimeoutS: Number(auth.timeout) };
}

/** Restarts of pouchdb-server allowed within a minute before the supervisor gives up. */
const MAX_RESTARTS_PER_MINUTE = 5;

/** A loopback port nobody listens on now (pouchdb-server's private one). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export async function startTeamServer(opts: TeamServerOptions, onRestart: (line: string) => void = () => {}): Promise<RunningTeamServer> {
  const bin = pouchdbServerBin();
  if (await portTaken(opts.host, opts.port)) throw new InputError(`port ${opts.port} on ${opts.host} is already in use: choose another with --port`);
  const work = opts.data ? resolve(opts.data) : mkdtempSync(join(tmpdir(), 'traversa-team-'));
  mkdirSync(work, { recursive: true });
  const configFile = join(work, 'config.json');
  const { adminName, generatedPassword, sessionTimeoutS } = writeConfig(configFile, opts);
  const outFile = join(work, 'pouchdb-server.out');
  const cleanup = () => {
    if (!opts.data) rmSync(work, { recursive: true, force: true });
  };
  const tail = () => (existsSync(outFile) ? readFileSync(outFile, 'utf8').trim().split('\n').slice(-10).join('\n') : '');
  /** What pouchdb-server said lately besides its request lines. */
  const complaints = () =>
    tail()
      .split('\n')
      .filter((l) => l && !l.startsWith('[info]'))
      .join('\n');

  // pouchdb-server on a private loopback port; the front (teamFront.ts) alone on the public one.
  let backend: string | null = null;
  let child: ChildProcess | null = null;
  let stopping = false;
  let finish!: (code: number | null) => void;
  const exited = new Promise<number | null>((done) => {
    finish = done;
  });
  const spawnChild = async (): Promise<void> => {
    const port = await freeLoopbackPort();
    const out = openSync(outFile, 'a');
    const args = [
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--dir',
      work,
      '--config',
      configFile,
      '--no-stdout-logs',
      ...(opts.data ? [] : ['--in-memory']),
    ];
    const c = spawn(process.execPath, [childScript(), bin, ...args], {
      cwd: work,
      stdio: ['ignore', out, out, 'ipc'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    closeSync(out);
    child = c;
    let gone = false;
    c.once('exit', (code, signal) => {
      gone = true;
      if (child === c) {
        backend = null;
        child = null;
        void restart(code, signal);
      }
    });
    const url = `http://127.0.0.1:${port}`;
    await waitUntilUp(`${url}/`, () => gone, 15_000);
    backend = url;
  };
  const restarts: number[] = [];
  const restart = async (code: number | null, signal: NodeJS.Signals | null = null) => {
    if (stopping) {
      finish(code);
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0]! < now - 60_000) restarts.shift();
    const said = complaints();
    const how = signal ? `killed by ${signal}` : `exit ${code}`;
    if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
      onRestart(`pouchdb-server stopped (${how}) ${restarts.length} times in a minute; giving up${said ? `. It said:\n${said}` : ''}`);
      front.close();
      finish(code ?? 1);
      return;
    }
    onRestart(
      `pouchdb-server stopped (${how}); restarting it${opts.data ? '' : ' — IN MEMORY: every database and user it held is gone'}${said ? `. It said:\n${said}` : ''}`,
    );
    await new Promise((r) => setTimeout(r, 300 * restarts.length));
    try {
      await spawnChild();
      if (!opts.data) await ensureUsersDb();
      onRestart('pouchdb-server is back');
    } catch (e) {
      void restart(null);
      onRestart(`restarting pouchdb-server failed: ${(e as Error).message}`);
    }
  };

  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${opts.port}/`;
  const admin = new Couch({
    server: url,
    db: undefined,
    user: opts.admin?.name ?? (generatedPassword ? adminName : undefined),
    password: opts.admin?.password ?? generatedPassword,
  });
  const ensureUsersDb = async () => {
    if (admin.target.user === undefined) return;
    const users = await admin.request('PUT', '_users');
    if (users.status !== 201 && users.status !== 412) throw await admin.refusal(users, 'creating _users');
  };
  let front: Server;
  try {
    await spawnChild();
    front = await startFront({ host: opts.host, port: opts.port, backend: () => backend, origins: opts.origins, sessionTimeoutS });
    if (admin.target.user !== undefined) {
      // The admin we wrote must be the one that answers: this server, with our configuration.
      if ((await admin.signedInAs()) !== admin.target.user) throw new InputError(`the server on ${url} does not know admin ${admin.target.user}`);
      await ensureUsersDb();
    }
  } catch (e) {
    stopping = true;
    const c = child as ChildProcess | null;
    if (c) {
      c.kill('SIGKILL');
      await new Promise((r) => c.once('exit', r));
    }
    const said = tail();
    cleanup();
    throw e instanceof InputError && !said ? e : new InputError(`${(e as Error).message}${said ? `\npouchdb-server said:\n${said}` : ''}`);
  }

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      stopping = true;
      await new Promise<void>((r) => {
        front.close(() => r());
        front.closeAllConnections();
      });
      const c = child as ChildProcess | null;
      if (c && c.exitCode === null) {
        const gone = new Promise((r) => c.once('exit', r));
        c.kill('SIGINT');
        const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
        await gone;
        clearTimeout(timer);
      }
      finish(0);
      cleanup();
    })());
  return {
    url,
    adminName,
    generatedPassword,
    logFile: join(work, 'log.txt'),
    exited,
    stop,
    output: tail,
    pid: () => (child as ChildProcess | null)?.pid ?? null,
  };
}

async function waitUntilUp(url: string, gone: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (gone()) throw new InputError('pouchdb-server stopped while starting');
    try {
      const res = await fetch(url);
      if (res.ok) {
        await res.text();
        return;
      }
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) throw new InputError(`pouchdb-server did not answer on ${url} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** The studio's own origins (`npm start` / `npm run dev` on 5173, `vite preview` on 4173): allowed when no --origin is given. */
export const STUDIO_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173', 'http://localhost:4173', 'http://127.0.0.1:4173'];
/** Where the databases live when neither --data nor --in-memory is given. */
export const DEFAULT_DATA = 'team-data';

/** The command: start, say where, serve until SIGINT or SIGTERM, stop cleanly. */
export async function teamServerCommand(a: {
  port?: string;
  host?: string;
  data?: string;
  inMemory: boolean;
  admin?: string;
  origins: string[];
  sessionTimeout?: string;
}): Promise<number> {
  const port = a.port === undefined ? 5984 : Number(a.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CliError(`--port must be a port number, not "${a.port}"`);
  if (a.data !== undefined && a.inMemory) throw new CliError('give --data <dir> or --in-memory, not both');
  if (a.data === '') throw new CliError('--data needs a folder');
  let admin: TeamServerOptions['admin'];
  if (a.admin !== undefined) {
    const i = a.admin.indexOf(':');
    if (i <= 0 || i === a.admin.length - 1) throw new CliError('--admin must be <user>:<password>');
    admin = { name: a.admin.slice(0, i), password: a.admin.slice(i + 1) };
  }
  for (const o of a.origins)
    if (!/^https?:\/\/[^/\s]+$/.test(o.replace(/\/+$/, ''))) throw new CliError(`--origin must be a page's origin such as http://localhost:5173, not "${o}"`);
  const sessionTimeoutS = a.sessionTimeout === undefined ? undefined : Number(a.sessionTimeout);
  if (sessionTimeoutS !== undefined && !(Number.isInteger(sessionTimeoutS) && sessionTimeoutS >= 1))
    throw new CliError(`--session-timeout must be a whole number of seconds, not "${a.sessionTimeout}"`);
  const data = a.inMemory ? undefined : (a.data ?? DEFAULT_DATA);
  const origins = a.origins.length ? a.origins.map((o) => o.replace(/\/+$/, '')) : STUDIO_ORIGINS;
  const say = (line: string) => process.stdout.write(line + '\n');
  const server = await startTeamServer({ port, host: a.host ?? '127.0.0.1', data, admin, origins, sessionTimeoutS }, (line) =>
    process.stderr.write(`traversa: ${line}\n`),
  );
  say(`Traversa team server on ${server.url} (admin ${server.adminName})`);
  if (server.generatedPassword) say(`admin password (generated, shown only now): ${server.generatedPassword}`);
  say(
    data
      ? `databases kept in ${resolve(data)} (LevelDB)`
      : 'IN MEMORY (--in-memory): every database, user and label is LOST when the server stops or restarts — for tests only; leave it out to keep them in ./team-data',
  );
  say(
    `browsers allowed (CORS, with credentials): ${origins.join(', ')}${a.origins.length ? '' : ' — the studio on this machine; --origin <url> for another'}; server log: ${server.logFile}`,
  );
  say(
    'Only signed-in members reach a project; only the admin creates or deletes databases and accounts. Production: Apache CouchDB (see docs/manual/team.md).',
  );
  say('Ctrl+C stops it.');
  const signal = await new Promise<NodeJS.Signals | 'exit'>((done) => {
    process.once('SIGINT', () => done('SIGINT'));
    process.once('SIGTERM', () => done('SIGTERM'));
    void server.exited.then(() => done('exit'));
  });
  if (signal === 'exit') {
    process.stderr.write(`traversa: the team server stopped: pouchdb-server kept failing (its log: ${server.logFile})\n`);
    await server.stop();
    return 1;
  }
  await server.stop();
  say('Traversa team server stopped');
  return 0;
}
