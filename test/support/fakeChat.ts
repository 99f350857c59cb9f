import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible chat endpoint on a free port of 127.0.0.1, started by a test:
 * `POST …/chat/completions` answers what `reply` says for the request's body (status, the
 * message's content, token usage), and every request is recorded. It answers CORS preflights
 * permissively, so the studio in a browser can call it as it would a real endpoint.
 *
 * `reply` may return a status other than 200 (429, 503…) to exercise retries; its `content` is
 * then sent as the error body. Requests that are not POSTs to chat/completions get a 404.
 */
export interface FakeChatRequest {
  headers: IncomingHttpHeaders;
  /** The request body, parsed (null when it is not JSON). */
  body: ChatBody | null;
  raw: string;
  url: string;
}

export interface ChatBody {
  model: string;
  temperature?: number;
  messages: { role: string; content: string | ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[] }[];
}

export interface FakeReply { status?: number; content: string; usage?: { prompt_tokens: number; completion_tokens: number } }

export interface FakeChat {
  /** The base URL to configure (`http://127.0.0.1:<port>/v1`). */
  url: string;
  requests: FakeChatRequest[];
  close(): Promise<void>;
}

export async function startFakeChat(options: { reply: (body: ChatBody | null, request: FakeChatRequest) => FakeReply | Promise<FakeReply> }): Promise<FakeChat> {
  const requests: FakeChatRequest[] = [];
  const server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'authorization, content-type',
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    let raw = '';
    req.setEncoding('utf8').on('data', (c: string) => { raw += c; });
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || !/\/chat\/completions(\?|$)/.test(req.url ?? '')) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not found');
          return;
        }
        let body: ChatBody | null = null;
        try { body = JSON.parse(raw) as ChatBody; } catch { body = null; }
        const request: FakeChatRequest = { headers: req.headers, body, raw, url: req.url ?? '' };
        requests.push(request);
        const r = await options.reply(body, request);
        const status = r.status ?? 200;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(status === 200
          ? JSON.stringify({ id: `chatcmpl-${requests.length}`, object: 'chat.completion', model: body?.model ?? '', choices: [{ index: 0, message: { role: 'assistant', content: r.content }, finish_reason: 'stop' }], ...(r.usage ? { usage: { ...r.usage, total_tokens: r.usage.prompt_tokens + r.usage.completion_tokens } } : {}) })
          : JSON.stringify({ error: { message: r.content } }));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** The images a recorded request carries (their URLs), in order. */
export function requestImages(r: FakeChatRequest): string[] {
  return (r.body?.messages ?? []).flatMap((m) => (typeof m.content === 'string' ? [] : m.content.flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : []))));
}

/** The texts of a recorded request's messages, joined. */
export function requestText(r: FakeChatRequest): string {
  return (r.body?.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n'))).join('\n');
}
