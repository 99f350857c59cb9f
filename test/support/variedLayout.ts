import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { mulberry32 } from './random.ts';

/**
 * The released layout rewritten the way other runners and models write it (issue 23 §14): each
 * file compact, indented by four spaces with CRLF line ends and escaped slashes, or by tabs with
 * every non-ASCII character escaped; "scene" last and each answer's keys reversed; and content as
 * models write it — names instead of ids, upper-cased, cut to their first word, or misspelt by one
 * random character (a different typo each time, so nothing repeats); paths given twice over;
 * answers "maybe", "", "TRUE", "Yes.", "NO". Returns how many files were written.
 */
export function writeVariedLayout(releaseDir: string, cleanRoot: string, into: string, seed = 5): number {
  const rng = mulberry32(seed);
  const names = new Map<string, Map<string, string>>();
  for (const g of readdirSync(join(releaseDir, 'graphs'))) {
    const graph = JSON.parse(readFileSync(join(releaseDir, 'graphs', g), 'utf8')) as { nodes: { id: string; name: string }[] };
    names.set(g.replace(/-graph\.json$/, ''), new Map(graph.nodes.map((n) => [n.id, n.name])));
  }
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) => {
      const p = join(d, f);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
  const token = (name: string): string => {
    const x = rng();
    if (x < 0.25) return name.toUpperCase();
    if (x < 0.45) return name.split(' ')[0]!;
    if (x < 0.6) {
      const i = Math.floor(rng() * name.length),
        c = String.fromCharCode(97 + Math.floor(rng() * 26));
      return rng() < 0.5 ? name.slice(0, i) + c + name.slice(i + 1) : name.slice(0, i) + c + name.slice(i);
    }
    return name;
  };
  let n = 0;
  for (const file of walk(cleanRoot)) {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      scene: string;
      result: { result?: { answer: unknown; path: unknown; reason: unknown } }[];
    } & Record<string, unknown>;
    const nodeName = names.get(doc.scene) ?? new Map<string, string>();
    for (const it of doc.result) {
      const r = it.result;
      if (!r) continue;
      let { answer, path } = r;
      if (rng() < 0.1) answer = ['maybe', '', 'TRUE', 'Yes.', 'NO'][Math.floor(rng() * 5)];
      if (Array.isArray(path)) {
        path = path.map((t: string) => (rng() < 0.4 ? t : token(nodeName.get(t) ?? t)));
        if (rng() < 0.15) path = [...(path as string[]), ...(path as string[])];
      }
      it.result = { reason: r.reason, path, answer };
    }
    const { scene, ...rest } = doc;
    const reordered = { ...rest, scene };
    const k = rng();
    const text =
      k < 1 / 3
        ? JSON.stringify(reordered)
        : k < 2 / 3
          ? JSON.stringify(reordered, null, 4).replace(/\n/g, '\r\n').replace(/\//g, '\\/')
          : JSON.stringify(reordered, null, '\t').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const to = join(into, relative(cleanRoot, file));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, text);
    n++;
  }
  return n;
}
