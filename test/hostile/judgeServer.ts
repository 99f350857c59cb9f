import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Project } from '../../src/core/project.ts';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { writeReleaseDir } from '../support/releaseBuilder.ts';
import { QUESTIONS, scoringHouse } from '../unit/scoreSupport.ts';

/** What a hostile judge endpoint saw of one request. */
export interface SeenRequest { headers: IncomingMessage['headers']; body: string; url: string; closedEarly: boolean }

/**
 * An OpenAI-compatible endpoint that misbehaves as the test tells it to (echo the headers, never
 * answer, answer 50 MB), on a free port of 127.0.0.1. It answers CORS preflights, so the studio
 * in a browser can call it too.
 */
export async function hostileJudge(answer: (req: SeenRequest, res: ServerResponse) => void): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-headers': 'authorization, content-type', 'access-control-allow-methods': 'POST' });
      res.end();
      return;
    }
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => { body += c; });
    req.on('end', () => {
      const r: SeenRequest = { headers: req.headers, body, url: req.url ?? '', closedEarly: false };
      seen.push(r);
      // The client hanging up (a time-out, a cancel, a reply cut short) is what some tests wait for.
      res.on('close', () => { if (!res.writableFinished) r.closedEarly = true; });
      res.on('error', () => {});
      answer(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url, seen,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
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
export function judgedRun(reasons: readonly string[], model = 'hostile-model'): { gt: string; pred: string; out: string; project: Project; files: { path: string; text: string }[]; cleanup: () => void } {
  const project = scoringHouse();
  const gt = writeReleaseDir(writeRelease(project), 'traversa-hostile-gt-');
  const pred = mkdtempSync(join(tmpdir(), 'traversa-hostile-pred-'));
  const out = mkdtempSync(join(tmpdir(), 'traversa-hostile-out-'));
  const text = reasons.map((reason) => JSON.stringify({
    model, scene: 'HOUSE01', question: QUESTIONS.hallToBedroom, agent: 'WHEELCHAIR', answer: 'no', path: 'hall -> living -> landing -> bedroom', reason,
  }) + '\n').join('');
  writeFileSync(join(pred, `${model}.jsonl`), text);
  return {
    gt, pred, out, project, files: [{ path: `${model}.jsonl`, text }],
    cleanup: () => { for (const d of [gt, pred, out]) rmSync(d, { recursive: true, force: true }); },
  };
}

/** Everything a run left in a folder, as text, file by file. */
export function folderTexts(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}
