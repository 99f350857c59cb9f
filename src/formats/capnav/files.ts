/** Which part of a CapNav release a file is, judged by its name alone (folders may be flattened). */
export type ReleaseFileKind =
  { kind: 'profiles' } | { kind: 'graph'; scene: string } | { kind: 'qa'; scene: string } | { kind: 'traverse'; scene: string } | { kind: 'other' };

export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

export function classify(path: string): ReleaseFileKind {
  const name = baseName(path);
  if (name === 'agent_profile.json') return { kind: 'profiles' };
  let m = /^(.+)-graph\.json$/.exec(name);
  if (m) return { kind: 'graph', scene: m[1]! };
  m = /^(.+)_QA\.json$/.exec(name);
  if (m) return { kind: 'qa', scene: m[1]! };
  m = /^(.+)-traverse\.json$/.exec(name);
  if (m) return { kind: 'traverse', scene: m[1]! };
  return { kind: 'other' };
}

/** A touring video's JSON in the release layout: videos/<SCENE>.poses.json or frames/<SCENE>/<budget>/frames.json. */
export function isTourFile(path: string): boolean {
  return /(^|\/)videos\/[^/]+\.poses\.json$/.test(path) || /(^|\/)frames\/[^/]+\/(16|32|64|1fps)\/frames\.json$/.test(path);
}

/** Release-layout paths of a scene's files, as the writer produces them. */
export const releasePath = {
  profiles: 'agent_profile.json',
  graph: (scene: string) => `graphs/${scene}-graph.json`,
  qa: (scene: string) => `qa/${scene}_QA.json`,
  traverse: (scene: string) => `traverse/${scene}-traverse.json`,
};

const RELEASE_FOLDERS = new Set(['graphs', 'qa', 'traverse']);

/**
 * Strip the folder the user picked, so `capnav/graphs/X-graph.json` and `graphs/X-graph.json`
 * are reported alike: the longest common leading folder of all paths is removed.
 */
export function stripCommonRoot(paths: readonly string[]): (p: string) => string {
  const split = paths.map((p) => p.replace(/\\/g, '/').replace(/^\.\//, '').split('/'));
  if (split.length === 0) return (p) => p;
  let common = 0;
  const first = split[0]!;
  // Never strip the release's own folders: a pick of only graphs/ still reports graphs/X-graph.json.
  while (common < first.length - 1 && !RELEASE_FOLDERS.has(first[common]!) && split.every((s) => s.length - 1 > common && s[common] === first[common]))
    common++;
  return (p) => p.replace(/\\/g, '/').replace(/^\.\//, '').split('/').slice(common).join('/');
}
