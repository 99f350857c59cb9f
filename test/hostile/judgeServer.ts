import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { LocalScoring } from '../../src/features/scoring/app/scoreClient.ts';
import type { JudgeEnv } from '../../src/cli/httpJudge.ts';
import { scoreCommand } from '../../src/cli/score.ts';
import type { Project } from '../../src/core/project.ts';
import type { HttpJudgeIo } from '../../src/core/scoring/judges/choose.ts';
import { DEFAULT_WEIGHTS } from '../../src/core/scoring/paper/types.ts';
import type { LiteOutcome } from '../../src/core/scoring/workerProtocol.ts';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { writeReleaseDir } from '../support/releaseBuilder.ts';
import { QUESTIONS, scoringHouse } from '../support/scoreSupport.ts';

/** What a hostile judge endpoint saw of one request. */
export interface SeenRequest {
  headers: IncomingMessage['headers'];
  body: string;
  url: string;
  closedEarly: boolean;
}

/**
 * An OpenAI-compatible endpoint that misbehaves as the test tells it to (echo the headers, never
 * answer, answer 50 MB), on a free port of 127.0.0.1. It answers CORS preflights, so the studio
 * in a browser can call it too.
 */
export async function hostileJudge(
  answer: (req: SeenRequest, res: ServerResponse) => void,
): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-headers': 'authorization, content-type', 'access-control-allow-methods': 'POST' });
      res.end();
      return;
    }
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      const r: SeenRequest = { headers: req.headers, body, url: req.url ?? '', closedEarly: false };
      seen.push(r);
      // The client hanging up (a time-out, a cancel, a reply cut short) is what some tests wait for.
      res.on('close', () => {
        if (!res.writableFinished) r.closedEarly = true;
      });
      res.on('error', () => {});
      answer(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A chat-completions reply whose message is `content`. */
export function completion(res: ServerResponse, content: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
}

/**
 * The scoring house as a release folder, and a results folder of one model whose every
 * prediction says "no" with one of `reasons` (one judge request per distinct reason).
 */
export function judgedRun(
  reasons: readonly string[],
  model = 'hostile-model',
): { gt: string; pred: string; out: string; project: Project; files: { path: string; text: string }[]; cleanup: () => void } {
  const project = scoringHouse();
  const gt = writeReleaseDir(writeRelease(project), 'traversa-hostile-gt-');
  const pred = mkdtempSync(join(tmpdir(), 'traversa-hostile-pred-'));
  const out = mkdtempSync(join(tmpdir(), 'traversa-hostile-out-'));
  const text = reasons
    .map(
      (reason) =>
        JSON.stringify({
          model,
          scene: 'HOUSE01',
          question: QUESTIONS.hallToBedroom,
          agent: 'WHEELCHAIR',
          answer: 'no',
          path: 'hall -> living -> landing -> bedroom',
          reason,
        }) + '\n',
    )
    .join('');
  writeFileSync(join(pred, `${model}.jsonl`), text);
  return {
    gt,
    pred,
    out,
    project,
    files: [{ path: `${model}.jsonl`, text }],
    cleanup: () => {
      for (const d of [gt, pred, out]) rmSync(d, { recursive: true, force: true });
    },
  };
}

/** Everything a run left in a folder, as text, file by file. */
export function folderTexts(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

type JudgedRun = ReturnType<typeof judgedRun>;

/** `traversa score --judge http` on a judged run, in this process: what it printed on stdout and stderr, and its exit code. */
export async function cliScore(run: JudgedRun, env: JudgeEnv, json = false, acceptUnjudged = false): Promise<{ stdout: string; stderr: string; code: number }> {
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const { text: stdout, code } = await scoreCommand({ gt: run.gt, pred: run.pred, out: run.out, judge: 'http', json, acceptUnjudged }, env);
    return { stdout, code, stderr: stderr.mock.calls.map((c) => String(c[0])).join('') };
  } finally {
    stderr.mockRestore();
  }
}

/**
 * Score a judged run as the Score view does with the HTTP judge (on the page, `LocalScoring`),
 * through `fetch` with the given IO; the scorer is returned to fetch records and downloads from.
 */
export async function pageScore(run: JudgedRun, baseUrl: string, io: Partial<HttpJudgeIo> = {}): Promise<{ scoring: LocalScoring; lite: LiteOutcome }> {
  const scoring = new LocalScoring();
  const lite = await scoring.score(
    {
      mode: 'paper',
      project: run.project,
      input: { root: 'results', files: run.files },
      settings: {
        judge: { kind: 'http', baseUrl, model: 'hostile' },
        weights: DEFAULT_WEIGHTS,
        averaging: 'micro',
        bootstrap: { resamples: 0, seed: 1, level: 0.95 },
      },
    },
    () => {},
    { fetch: (url, init) => fetch(url, init as RequestInit), sleep: async () => {}, ...io },
  );
  return { scoring, lite };
}
