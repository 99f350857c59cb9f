// Node-side (Vite config) code: never import this from app code.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/** three's decoder folders, served at /decoders/<kind>/ (see decoders.ts for the client side). */
const SOURCES = { draco: 'examples/jsm/libs/draco/gltf', basis: 'examples/jsm/libs/basis' } as const;
const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm' };

export interface DecoderFile {
  kind: keyof typeof SOURCES;
  name: string;
  path: string;
}

/** The decoder files of the installed three (JS and wasm only; READMEs stay behind). */
export function decoderFiles(threeDir = installedThree()): DecoderFile[] {
  return (Object.keys(SOURCES) as (keyof typeof SOURCES)[]).flatMap((kind) => {
    const dir = join(threeDir, SOURCES[kind]);
    return readdirSync(dir)
      .filter((name) => /\.(js|wasm)$/.test(name))
      .map((name) => ({ kind, name, path: join(dir, name) }));
  });
}

function installedThree(): string {
  // three's package.json is not in its exports map, but its main entry is: walk up from it.
  return join(dirname(createRequire(import.meta.url).resolve('three')), '..');
}

/**
 * Serve three's Draco decoder and Basis transcoder from the app itself (dev server) and ship them
 * in the build, so loading compressed glTF never depends on a CDN: there is no network here, and
 * the decoder then always matches the installed three.
 */
export function decodersPlugin(): Plugin {
  let files: DecoderFile[] = [];
  let base = '/';
  return {
    name: 'traversa-decoders',
    configResolved(config) {
      base = config.base.endsWith('/') ? config.base : `${config.base}/`;
      files = decoderFiles();
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0]!;
        const prefix = `${base}decoders/`;
        if (!path.startsWith(prefix)) return next();
        const [kind, name, ...rest] = path.slice(prefix.length).split('/');
        // Only the listed files: a request can never reach anything else on disk.
        const file = rest.length === 0 ? files.find((f) => f.kind === kind && f.name === name) : undefined;
        if (!file) return next();
        res.setHeader('Content-Type', TYPES[file.name.slice(file.name.lastIndexOf('.'))] ?? 'application/octet-stream');
        res.setHeader('Cache-Control', 'no-cache');
        res.end(readFileSync(file.path));
      });
    },
    generateBundle() {
      for (const f of files) this.emitFile({ type: 'asset', fileName: `decoders/${f.kind}/${f.name}`, source: readFileSync(f.path) });
    },
  };
}
