import { describe, expect, it } from 'vitest';
import { checkScene } from '../../../../src/core/checks.ts';
import type { Scene } from '../../../../src/core/project.ts';
import { sceneErrorCount } from '../../../../src/features/scene/ui/sceneErrors.ts';
import { navEdges, navNode, sceneOf } from '../../../support/sceneBuilder.ts';

const hall = (): Scene => sceneOf({ graph: { nodes: [navNode('hall', 'Hall'), navNode('kitchen', 'Kitchen')], edges: navEdges('hall-kitchen') } });

describe("the scene list's error count", () => {
  it('counts what the checks call fatal or an error, not warnings', () => {
    const scene = hall();
    expect(sceneErrorCount(scene)).toBe(0);
    // A dangling doorway (error), a duplicate edge id (fatal) and a self-loop (warning only).
    const broken: Scene = {
      ...scene,
      graph: { ...scene.graph, edges: [...scene.graph.edges, { id: 'e9', from: 'garage', to: 'hall' }, { id: 'e0', from: 'hall', to: 'hall' }] },
    };
    const findings = checkScene(broken);
    expect(findings.some((f) => f.severity === 'warning')).toBe(true);
    expect(sceneErrorCount(broken)).toBe(findings.filter((f) => f.severity !== 'warning').length);
    expect(sceneErrorCount(broken)).toBe(2);
  });

  it('an edited scene (a new object, as every edit makes) is checked again; the others keep their count', () => {
    const before = hall();
    const other = hall();
    expect(sceneErrorCount(before)).toBe(0);
    expect(sceneErrorCount(other)).toBe(0);
    const after: Scene = { ...before, graph: { ...before.graph, edges: [...before.graph.edges, { id: 'e1', from: 'hall', to: 'cellar' }] } };
    expect(sceneErrorCount(after)).toBe(1);
    expect(sceneErrorCount(before)).toBe(0);
    expect(sceneErrorCount(other)).toBe(0);
  });
});
