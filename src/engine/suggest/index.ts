/**
 * The automatic traversability suggestion engine: measure each graph edge in the scan once, then
 * judge it for every agent with the project's rules (core/rules.ts), with each agent's navmesh as
 * corroboration. See suggest.ts for the flow and measureEdge.ts for what is measured.
 */
export { prepareGeometry, DOOR_NAME, LIFT_NAME, type SceneGeometry } from './geometry.ts';
export { buildAgentNavMesh, buildReferenceNavMesh, initRecast, REFERENCE_AGENT, type AgentNavMesh, type NavMeshOptions } from './navmesh.ts';
export { measureContext, measureEdge, type MeasureContext } from './measureEdge.ts';
export { featureForAgent, suggestForAgent, suggestScene, type SuggestOptions } from './suggest.ts';
export * from './types.ts';
