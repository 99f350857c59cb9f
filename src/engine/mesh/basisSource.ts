import { decoderPath } from './decoders.ts';

/** three's Basis Universal transcoder: its Emscripten wrapper (text) and WebAssembly binary. */
export interface BasisTranscoderFiles {
  js: string;
  wasm: ArrayBuffer;
}

const JS = 'basis_transcoder.js';
const WASM = 'basis_transcoder.wasm';

const isNode = () =>
  typeof document === 'undefined' && typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';

/**
 * The transcoder files, read once per page (or Node process) and shared by every load. In a browser
 * they come from the app's own `/decoders/basis/` (src/build/decodersPlugin.ts), the same files KTX2Loader
 * uses; in Node (tests, the command line) straight from the installed three package, so Basis
 * textures decode there too instead of being left out.
 */
export function basisTranscoderFiles(): Promise<BasisTranscoderFiles> {
  cached ??= (isNode() ? fromPackage() : fromSite()).catch((err: unknown) => {
    cached = null;
    throw err;
  });
  return cached;
}
let cached: Promise<BasisTranscoderFiles> | null = null;

async function fromSite(): Promise<BasisTranscoderFiles> {
  const get = async (name: string) => {
    const url = decoderPath('basis') + name;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    return res;
  };
  const [js, wasm] = await Promise.all([get(JS).then((r) => r.text()), get(WASM).then((r) => r.arrayBuffer())]);
  return { js, wasm };
}

async function fromPackage(): Promise<BasisTranscoderFiles> {
  // Module names held in variables (and @vite-ignore) so the browser build never tries to bundle them.
  const moduleApi = 'node:module',
    fsApi = 'node:fs/promises';
  const { createRequire } = (await import(/* @vite-ignore */ moduleApi)) as typeof import('node:module');
  const { readFile } = (await import(/* @vite-ignore */ fsApi)) as typeof import('node:fs/promises');
  const require = createRequire(import.meta.url);
  const js = require.resolve(`three/examples/jsm/libs/basis/${JS}`);
  const bytes = await readFile(js.slice(0, -JS.length) + WASM);
  return { js: await readFile(js, 'utf8'), wasm: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer };
}
