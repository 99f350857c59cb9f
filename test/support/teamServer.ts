import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { REPO, traversa } from './cli.ts';

/** A loopback port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface TeamServer {
  url: string;
  /** The admin's credentials in a URL: `http://root:pw@127.0.0.1:P/` + path. */
  as(user: string, password: string, path?: string): string;
  admin(path?: string): string;
  /** Everything the command printed so far. */
  output(): string;
  /** Milliseconds from spawning the command to its whole banner. */
  startMs: number;
  /** Stop it as Ctrl+C would; resolves with the exit code and all it printed. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; output: string }>;
}

export const ADMIN = { name: 'root', password: 'root-pw-1' };

/** Start `npm run team-server` as a user would (through the CLI launcher) on a free port. */
export async function startTeamServer(extra: string[] = ['--in-memory'], admin: typeof ADMIN | null = ADMIN, onPort?: number): Promise<TeamServer> {
  const port = onPort ?? (await freePort());
  const t0 = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ['src/cli/launch.mjs', 'team-server', '--port', String(port), ...extra, ...(admin ? ['--admin', `${admin.name}:${admin.password}`] : [])],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString('utf8');
      // The banner's last line: everything above it (a generated password) has arrived too.
      if (/Ctrl\+C stops it\./.test(output)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`team-server exited (${code}) before it was up:\n${output}`)));
    setTimeout(() => reject(new Error(`team-server did not start within 30 s:\n${output}`)), 30_000);
  });
  const startMs = performance.now() - t0;
  const url = `http://127.0.0.1:${port}/`;
  const as = (user: string, password: string, path = '') => `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${path}`;
  return {
    url,
    as,
    startMs,
    output: () => output,
    admin: (path = '') => as(ADMIN.name, ADMIN.password, path),
    async stop(signal = 'SIGINT') {
      if (child.exitCode === null) child.kill(signal);
      return { code: await exited, output };
    },
  };
}

/** A team database `db` with the given members (annotators) and leads, each a user whose password is `<name>-pw`. */
export async function teamProject(server: TeamServer, db: string, members: string[], outsiders: string[] = [], leads: string[] = []): Promise<void> {
  for (const name of [...leads, ...members, ...outsiders]) {
    const r = await traversa('team', 'add-user', server.admin(), name, '--password', `${name}-pw`);
    if (r.code !== 0) throw new Error(r.stderr);
  }
  const r = await traversa('team', 'create-project', server.admin(db), ...leads.flatMap((l) => ['--lead', l]), ...members.flatMap((m) => ['--member', m]));
  if (r.code !== 0) throw new Error(r.stderr);
}

/** An HTTP request as `user` (null: anonymous) to the server; the parsed JSON answer. */
export async function couch(server: TeamServer, user: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const auth: Record<string, string> =
    user === null ? {} : { authorization: 'Basic ' + Buffer.from(`${user}:${user === ADMIN.name ? ADMIN.password : `${user}-pw`}`).toString('base64') };
  const res = await fetch(server.url + path, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    json = { text };
  }
  return { status: res.status, json, headers: res.headers };
}

/** The command line with extra environment variables (credentials given as TRAVERSA_COUCH_USER / _PASSWORD). */
export function traversaWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['src/cli/launch.mjs', ...args], { cwd: REPO, env: { ...process.env, ...env }, timeout: 240_000 });
    let stdout = '',
      stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
