import type { AgentName } from './agents.ts';
import { parseSegmentKey, undirectedKey } from './graph.ts';
import type { Scene } from './project.ts';

export interface Agreement {
  agent: AgentName;
  compared: number;
  agreed: number;
  disagreements: { edge: string; suggested: boolean; confirmed: boolean }[];
}

/**
 * How often the suggestions match what annotators confirmed: per agent, over segments that carry
 * a label an annotator decided (auto-approved and generated labels are not confirmations).
 */
export function suggestionAgreement(scene: Scene, suggestions: Record<AgentName, Record<string, { traversable: boolean }>>): Agreement[] {
  return Object.entries(suggestions).map(([agent, byEdge]) => {
    const out: Agreement = { agent, compared: 0, agreed: 0, disagreements: [] };
    const seen = new Set<string>();
    for (const [key, label] of Object.entries(scene.labels[agent] ?? {})) {
      const seg = parseSegmentKey(key);
      if (!seg || label.source === 'auto-approved' || label.source === 'generator') continue;
      const edge = undirectedKey(seg.from, seg.to);
      const sug = byEdge[edge];
      if (!sug || seen.has(edge)) continue;
      seen.add(edge);
      out.compared++;
      if (sug.traversable === label.traversable) out.agreed++;
      else out.disagreements.push({ edge, suggested: sug.traversable, confirmed: label.traversable });
    }
    return out;
  });
}
