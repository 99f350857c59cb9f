import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible chat endpoint on a free port of 127.0.0.1, started by a test:
 * `POST …/chat/completions` answers with what the test's `reply` says for the request (a status
 * other than 200 is an error reply, e.g. 503 to exercise retries, 401 a refusal), and reports
 * `usage` tokens (given, or counted from the request: 85 per image and a token per four
 * characters of text, a token per four characters of the reply). Every request is recorded; the
 * number in flight is tracked, so a test can check a concurrency limit. CORS preflights are
 * answered permissively, so the studio in a browser calls it as it would a real endpoint.
 */

export interface ChatBody {
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
  /** Sent as the Location header (with a 3xx `status`). */
  location?: string;
}

export interface FakeChatRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: ChatBody;
  raw: string;
  /** Position among all requests, from 0. */
  n: number;
}

export interface FakeChat {
  /** The API's base, e.g. `http://127.0.0.1:41234/v1` (clients append /chat/completions). */
  url: string;
  requests: FakeChatRequest[];
  /** The most requests ever in flight at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export interface FakeChatOptions {
  reply: (body: ChatBody, request: FakeChatRequest) => FakeReply | Promise<FakeReply>;
  /** Every reply held this long (ms) unless the reply says otherwise. */
  delayMs?: number;
}

type Part = Exclude<ChatBody['messages'][number]['content'], string>[number];
const parts = (content: ChatBody['messages'][number]['content']): Part[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

/** The text parts of the user message, joined. */
export function promptText(body: ChatBody): string {
  const user = body.messages.find((m) => m.role === 'user');
  return user
    ? parts(user.content)
        .map((p) => (p.type === 'text' ? p.text : ''))
        .join('\n')
    : '';
}

/** The image URLs of the user message, in order. */
export function imagesOf(body: ChatBody): string[] {
  const user = body.messages.find((m) => m.role === 'user');
  return user ? parts(user.content).flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : [])) : [];
}

/** The images a recorded request carries (their URLs), in order, in any message. */
export function requestImages(r: FakeChatRequest): string[] {
  return r.body.messages.flatMap((m) => parts(m.content).flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : [])));
}

/** The texts of a recorded request's messages, joined. */
export function requestText(r: FakeChatRequest): string {
  return r.body.messages
    .map((m) =>
      parts(m.content)
        .map((p) => (p.type === 'text' ? p.text : ''))
        .join('\n'),
    )
    .join('\n');
}

function countedUsage(body: ChatBody, content: string) {
  return { prompt_tokens: Math.ceil(promptText(body).length / 4) + 85 * imagesOf(body).length, completion_tokens: Math.ceil(content.length / 4) };
}

export async function startFakeChat(opts: FakeChatOptions): Promise<FakeChat> {
  const requests: FakeChatRequest[] = [];
  let inFlight = 0,
    maxInFlight = 0;
  const server: Server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res
        .writeHead(204, {
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'authorization, content-type',
          'access-control-allow-methods': 'POST, OPTIONS',
          'access-control-max-age': '600',
        })
        .end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      let done = false;
      res.on('close', () => {
        if (!done) {
          done = true;
          inFlight--;
        }
      });
      void (async () => {
        if (req.method !== 'POST' || !/\/chat\/completions$/.test((req.url ?? '').split('?')[0]!)) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error": {"message": "no such route"}}');
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: ChatBody;
        try {
          body = JSON.parse(raw) as ChatBody;
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error": {"message": "the body is not JSON"}}');
          return;
        }
        const request: FakeChatRequest = { url: req.url ?? '', headers: req.headers, body, raw, n: requests.length };
        requests.push(request);
        const r = await opts.reply(body, request);
        const delay = r.delayMs ?? opts.delayMs ?? 0;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        const status = r.status ?? 200;
        if (status !== 200) {
          res
            .writeHead(status, { 'content-type': 'application/json', ...(r.location ? { location: r.location } : {}) })
            .end(JSON.stringify({ error: { message: r.content } }));
          return;
        }
        const usage = r.usage ?? countedUsage(body, r.content);
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${request.n}`,
            object: 'chat.completion',
            model: body.model,
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: r.content } }],
            usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
          }),
        );
      })().catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
