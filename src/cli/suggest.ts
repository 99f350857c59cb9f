import { prepareGeometry, suggestScene, type SceneSuggestions } from '../engine/suggest/index.ts';
import { withScan, type ScanArgs } from './scanInputs.ts';
import { table } from './tables.ts';
import { shardOption } from './options.ts';
import { scanShardText, shardGraph } from './scanShard.ts';

/**
 * `suggest --mesh <file> --graph <graph.json> [--agents <agent_profile.json>] [--up y|z] [--scale N] [--json]`:
 * suggested traversability per agent and edge, from the same engine the studio runs (loadMesh,
 * prepareGeometry, suggestScene). Problems with the inputs (a mesh that cannot be loaded, a graph or
 * profile file that cannot be read) are a failed command, exit 1; bad arguments are exit 2.
 */

export type SuggestArgs = ScanArgs & { shard?: string };

export async function suggestCommand(args: SuggestArgs): Promise<string> {
  const shard = shardOption(args.shard);
  return withScan('suggest', args, async ({ graph, profiles, loaded }) => {
    const result = await suggestScene(prepareGeometry(loaded), shard ? shardGraph(graph, shard) : graph, profiles);
    if (shard) return scanShardText('suggest', shard, args, graph, asJson(result));
    return args.json ? JSON.stringify(asJson(result), null, 2) : formatSuggestions(result);
  });
}

function asJson(r: SceneSuggestions) {
  const agents = Object.fromEntries(
    Object.entries(r.agents).map(([agent, byEdge]) => [
      agent,
      Object.fromEntries(
        Object.entries(byEdge).map(([edge, s]) => [
          edge,
          { traversable: s.traversable, reason: s.reason, note: s.note, measured: s.measured, ...(s.doubt ? { doubt: s.doubt } : {}) },
        ]),
      ),
    ]),
  );
  const edges = Object.fromEntries(Object.entries(r.edges).map(([edge, m]) => [edge, m.feature ?? { kind: null, noRoute: m.noRoute }]));
  return { agents, edges };
}

const cm = (m: number | undefined) => (m === undefined ? '' : `${(m * 100).toFixed(1)} cm`);

function formatSuggestions(r: SceneSuggestions): string {
  const agentNames = Object.keys(r.agents);
  const rows = Object.entries(r.edges).map(([key, m]) => {
    const f = m.feature;
    const what = !f
      ? 'no route'
      : [
          f.kind,
          f.clearWidthM !== undefined ? `width ${cm(f.clearWidthM)}` : '',
          f.sillHeightM !== undefined ? `step ${cm(f.sillHeightM)}` : '',
          f.risers ? `${f.risers} × ${cm(f.riserM)} risers` : '',
          f.cornerWidthsM ? `legs ${cm(f.cornerWidthsM[0])} / ${cm(f.cornerWidthsM[1])}` : '',
          f.clearHeightM !== undefined ? `height ${cm(f.clearHeightM)}` : '',
          f.riseM !== undefined ? `rise ${cm(f.riseM)} over ${cm(f.runM)}` : '',
          f.closedDoor ? 'closed door' : '',
        ]
          .filter(Boolean)
          .join(', ');
    return [
      key,
      what,
      ...agentNames.map((a) => {
        const s = r.agents[a]![key]!;
        return s.traversable ? 'yes' : `no (${s.reason})`;
      }),
    ];
  });
  const timings = `navmeshes ${(r.timings.navmeshMs / 1000).toFixed(1)} s, measuring ${(r.timings.measureMs / 1000).toFixed(1)} s`;
  return `${table(['edge', 'measured', ...agentNames], rows)}\n\n${timings}\n`;
}
