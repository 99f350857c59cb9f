import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

/**
 * The loopback server `cli tour` drives Chromium against: the built studio (dist/) as it is, the
 * scan's files at /__tour/files/<n>, a POST at /__tour/video that takes the rendered video back and
 * one at /__tour/frames/<video frame index> for each frame kept as a JPEG. Bound to 127.0.0.1 (a
 * secure context, where WebCodecs exists), on a free port. One server serves a run's tours one
 * after another: `begin` hands it the next scan and forgets the last tour's video and frames.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
};

export interface TourServer {
  url: string;
  /** The video's bytes once the page has posted them (null before). */
  video: () => Buffer | null;
  /** The JPEG of a video frame once the page has posted it (undefined before). */
  frame: (index: number) => Buffer | undefined;
  /** Serve `files` as the scan from now on, with no video or frames yet. */
  begin: (files: readonly string[]) => void;
  close: () => Promise<void>;
}

export async function startTourServer(dist: string, scan: readonly string[] = []): Promise<TourServer> {
  let files = scan;
  let video: Buffer | null = null;
  let frames = new Map<number, Buffer>();
  const body = (req: IncomingMessage, res: ServerResponse, keep: (b: Buffer) => void) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      keep(Buffer.concat(chunks));
      res.writeHead(204).end();
    });
  };
  const serve = (res: ServerResponse, path: string, type: string) => {
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': statSync(path).size, 'Cache-Control': 'no-store' });
    createReadStream(path).pipe(res);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const file = /^\/__tour\/files\/(\d+)$/.exec(path);
    const frame = /^\/__tour\/frames\/(\d+)$/.exec(path);
    if (file && req.method === 'GET') {
      const f = files[Number(file[1])];
      if (f) return serve(res, f, 'application/octet-stream');
    } else if (path === '/__tour/video' && req.method === 'POST') {
      return body(req, res, (b) => (video = b));
    } else if (frame && req.method === 'POST') {
      const into = frames;
      return body(req, res, (b) => into.set(Number(frame[1]), b));
    } else if (req.method === 'GET') {
      const full = normalize(join(dist, path.endsWith('/') ? `${path}index.html` : path));
      if ((full === dist || full.startsWith(dist + sep)) && existsSync(full) && statSync(full).isFile())
        return serve(res, full, TYPES[extname(full)] ?? 'application/octet-stream');
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    video: () => video,
    frame: (index) => frames.get(index),
    begin: (next) => {
      files = next;
      video = null;
      frames = new Map();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
