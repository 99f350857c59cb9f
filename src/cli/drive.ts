import { prepareGeometry } from '../engine/suggest/index.ts';
import { driveScene, type SceneDrives } from '../engine/planner/index.ts';
import { withScan, type ScanArgs } from './scanInputs.ts';
import { table } from './tables.ts';
import { shardOption } from './options.ts';
import { scanShardText, shardGraph } from './scanShard.ts';

/**
 * `drive --mesh <file> --graph <graph.json> [--agents <agent_profile.json>] [--up y|z] [--scale N] [--json]`:
 * every agent driven over every edge of the graph by the studio's own motion planner (engine/planner),
 * each edge `a|b` (a < b) from a to b. `reached` means a collision-free motion of the agent's true
 * footprint exists at the planner's resolution and the collider drove it; otherwise `reason` is
 * the measured cause in the rules' categories.
 */
export async function driveCommand(args: ScanArgs & { shard?: string }): Promise<string> {
  const shard = shardOption(args.shard);
  return withScan('drive', args, async ({ graph, profiles, loaded }) => {
    const result = await driveScene(prepareGeometry(loaded), shard ? shardGraph(graph, shard) : graph, profiles);
    if (shard) return scanShardText('drive', shard, args, graph, asJson(result));
    return args.json ? JSON.stringify(asJson(result), null, 2) : formatDrives(result);
  });
}

function asJson(r: SceneDrives) {
  const agents = Object.fromEntries(
    Object.entries(r.agents).map(([agent, byEdge]) => [
      agent,
      Object.fromEntries(
        Object.entries(byEdge).map(([edge, d]) => [
          edge,
          { reached: d.reached, reason: d.reason, note: d.note, measured: d.measured, poses: d.motion.length, ...(d.doubt ? { doubt: d.doubt } : {}) },
        ]),
      ),
    ]),
  );
  const any = Object.values(r.agents).flatMap((e) => Object.values(e))[0];
  return { agents, ...(any ? { resolution: any.resolution } : {}) };
}

const cm = (m: number | undefined) => (m === undefined ? '' : ` ${(m * 100).toFixed(1)} cm`);

function formatDrives(r: SceneDrives): string {
  const agentNames = Object.keys(r.agents);
  const edges = [...new Set(agentNames.flatMap((a) => Object.keys(r.agents[a]!)))];
  const rows = edges.map((edge) => [
    edge,
    ...agentNames.map((a) => {
      const d = r.agents[a]![edge]!;
      const doubt = d.doubt ? ' (?)' : '';
      if (d.reached) return `reached${doubt}`;
      const m = d.measured;
      const figure = m.clearHeightM !== undefined ? cm(m.clearHeightM) : d.reason === 'step' ? cm(m.stepHeightM) : cm(m.clearWidthM);
      return `stopped: ${d.reason}${figure}${doubt}`;
    }),
  ]);
  const doubts = agentNames.flatMap((a) =>
    edges.flatMap((edge) => {
      const d = r.agents[a]![edge];
      return d?.doubt ? [`(?) ${a} ${edge}: ${d.doubt}`] : [];
    }),
  );
  return `${table(['edge', ...agentNames], rows)}\n${doubts.length ? `\n${doubts.join('\n')}\n` : ''}\nnavmesh ${(r.timings.navmeshMs / 1000).toFixed(1)} s, all drives ${(r.timings.totalMs / 1000).toFixed(1)} s\n`;
}
