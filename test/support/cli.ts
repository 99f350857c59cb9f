import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Run the command line as a user would (the bundled entry `npm run cli` uses); children may run in parallel. */
export function traversa(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return traversaWith({ limitMs: 240_000 }, ...args);
}

export interface RunLimits {
  /** The child is killed (SIGKILL) past this, and `timedOut` says so. */
  limitMs: number;
  /** Run as this user and group (e.g. `nobody`, for permission faults a root user would not meet). */
  uid?: number;
  gid?: number;
  /** Variables added to the test's environment for the child (e.g. an API key). */
  env?: Record<string, string>;
  /** What the child reads on standard input (closed after it); none: standard input is closed at once. */
  input?: string;
}

/** `traversa` with a hard time limit: a command that hangs is killed, never left behind by the test. */
export function traversaWith(limits: RunLimits, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['src/cli/launch.mjs', ...args], {
      cwd: REPO,
      uid: limits.uid,
      gid: limits.gid,
      env: limits.env ? { ...process.env, ...limits.env } : undefined,
    });
    let stdout = '',
      stderr = '',
      timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limits.limitMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.stdin.end(limits.input ?? '');
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
