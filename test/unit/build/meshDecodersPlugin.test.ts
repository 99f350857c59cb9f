import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin, ResolvedConfig, ViteDevServer } from 'vite';
import { describe, expect, it } from 'vitest';
import { decoderFiles, decodersPlugin } from '../../../src/build/decodersPlugin.ts';
import { decoderPath } from '../../../src/engine/mesh/decoders.ts';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** Drive the plugin's hooks the way Vite does, with just the parts of Vite they touch. */
function started(base = '/') {
  const plugin = decodersPlugin() as Plugin & Record<string, unknown>;
  (plugin.configResolved as (c: Partial<ResolvedConfig>) => void)({ base });
  let middleware: Middleware | null = null;
  (plugin.configureServer as (s: Partial<ViteDevServer>) => void)({
    middlewares: {
      use: (m: Middleware) => {
        middleware = m;
      },
    } as never,
  });
  return { plugin, middleware: middleware! };
}

function request(middleware: Middleware, url: string) {
  const headers: Record<string, string> = {};
  let body: Buffer | null = null;
  let passed = false;
  const res = {
    setHeader: (k: string, v: string) => {
      headers[k] = v;
    },
    end: (b: Buffer) => {
      body = b;
    },
  };
  middleware({ url } as IncomingMessage, res as unknown as ServerResponse, () => {
    passed = true;
  });
  return { headers, body: body as Buffer | null, passed };
}

describe('the decoder plugin serves and ships three’s Draco and Basis decoders', () => {
  it('finds the decoder files of the installed three', () => {
    expect(
      decoderFiles()
        .map((f) => `${f.kind}/${f.name}`)
        .sort(),
    ).toEqual([
      'basis/basis_transcoder.js',
      'basis/basis_transcoder.wasm',
      'draco/draco_decoder.js',
      'draco/draco_decoder.wasm',
      'draco/draco_wasm_wrapper.js',
    ]);
  });

  it('serves them in dev at the paths the loaders ask for, with wasm typed as wasm', () => {
    const { middleware } = started();
    const wasm = request(middleware, `${decoderPath('draco')}draco_decoder.wasm`);
    expect(wasm.headers['Content-Type']).toBe('application/wasm');
    const file = decoderFiles().find((f) => f.name === 'draco_decoder.wasm')!;
    expect(wasm.body!.equals(readFileSync(file.path))).toBe(true);
    expect(request(middleware, '/decoders/basis/basis_transcoder.js?v=1').headers['Content-Type']).toMatch(/^text\/javascript/);
  });

  it('passes everything else on, and never serves a file outside the list', () => {
    const { middleware } = started();
    for (const url of ['/', '/decoders/draco/README.md', '/decoders/draco/../../package.json', '/decoders/basis/x/basis_transcoder.js', '/src/main.tsx']) {
      expect(request(middleware, url)).toMatchObject({ passed: true, body: null });
    }
  });

  it('serves under a non-root base, and emits every file into the build', () => {
    const { plugin, middleware } = started('/traversa/');
    expect(request(middleware, '/traversa/decoders/draco/draco_wasm_wrapper.js').body).not.toBeNull();
    const emitted: string[] = [];
    (plugin.generateBundle as (this: unknown) => void).call({ emitFile: (f: { fileName: string }) => emitted.push(f.fileName) });
    expect(emitted.sort()).toEqual(
      decoderFiles()
        .map((f) => `decoders/${f.kind}/${f.name}`)
        .sort(),
    );
  });
});
