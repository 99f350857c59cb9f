import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible chat endpoint on a free port of 127.0.0.1, started by a test:
 * `POST /v1/chat/completions` answers with what the test's `reply` says for the request body
 * (a status other than 200 is an error reply, e.g. 503 to exercise retries, 401 a refusal), and
 * reports `usage` tokens (given, or counted from the request: 85 per image and a token per four
 * characters of text, a token per four characters of the reply). Every request is recorded; the
 * number in flight is tracked, so a test can check a concurrency limit.
 */

export interface ChatRequestBody {
  model: string;
  temperature?: number;
  messages: { role: string; content: string | ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[] }[];
}

export interface FakeReply {
  /** 200 unless given; any other status sends `content` as the error body. */
  status?: number;
  content: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Hold the reply this long (ms) before sending it. */
  delayMs?: number;
}

export interface RecordedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: ChatRequestBody;
  /** Position among all requests, from 0. */
  n: number;
}

export interface FakeChat {
  /** The API's base, e.g. `http://127.0.0.1:41234/v1` (run-model appends /chat/completions). */
  url: string;
  requests: RecordedRequest[];
  /** The most requests ever in flight at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export interface FakeChatOptions {
  reply: (body: ChatRequestBody, n: number) => FakeReply | Promise<FakeReply>;
  /** Every reply held this long (ms) unless the reply says otherwise. */
  delayMs?: number;
}

/** The text parts of the user message, joined. */
export function promptText(body: ChatRequestBody): string {
  const user = body.messages.find((m) => m.role === 'user');
  if (!user) return '';
  return typeof user.content === 'string' ? user.content : user.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

/** The image URLs of the user message, in order. */
export function imagesOf(body: ChatRequestBody): string[] {
  const user = body.messages.find((m) => m.role === 'user');
  if (!user || typeof user.content === 'string') return [];
  return user.content.flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : []));
}

function countedUsage(body: ChatRequestBody, content: string) {
  const text = promptText(body);
  return { prompt_tokens: Math.ceil(text.length / 4) + 85 * imagesOf(body).length, completion_tokens: Math.ceil(content.length / 4) };
}

export async function startFakeChat(opts: FakeChatOptions): Promise<FakeChat> {
  const requests: RecordedRequest[] = [];
  let inFlight = 0, maxInFlight = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      let done = false;
      const finish = () => { if (!done) { done = true; inFlight--; } };
      res.on('close', finish);
      void (async () => {
        if (req.method !== 'POST' || !/\/chat\/completions$/.test((req.url ?? '').split('?')[0]!)) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error": {"message": "no such route"}}');
          return;
        }
        let body: ChatRequestBody;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody;
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error": {"message": "the body is not JSON"}}');
          return;
        }
        const n = requests.length;
        requests.push({ url: req.url ?? '', headers: req.headers, body, n });
        const r = await opts.reply(body, n);
        const delay = r.delayMs ?? opts.delayMs ?? 0;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        const status = r.status ?? 200;
        if (status !== 200) {
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: r.content } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
          id: `chatcmpl-${n}`, object: 'chat.completion', model: body.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: r.content } }],
          usage: (() => { const u = r.usage ?? countedUsage(body, r.content); return { ...u, total_tokens: u.prompt_tokens + u.completion_tokens }; })(),
        }));
      })().catch(() => { if (!res.headersSent) res.writeHead(500).end(); else res.destroy(); });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    get maxInFlight() { return maxInFlight; },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
