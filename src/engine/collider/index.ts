/**
 * The agent footprint collider: an agent's true footprint moved through a scan by explicit steps,
 * judged with three-mesh-bvh queries and the margins of core/rules.ts (see body.ts), live
 * readouts for a driving UI (readouts.ts) and an auto-drive along a route (autoDrive.ts).
 */
export { footprintOf, type Footprint } from './footprint.ts';
export { spawnFacing, type Spawned } from './spawn.ts';
export { AgentBody, place, DROP_STOP_M, STEP_CLASS_M, type Contact, type ContactKind, type Pose, type StepCommand, type StepResult } from './body.ts';
export type { SideClearance } from './clearance.ts';
export { LiveReadouts, clearWidthAcross, clearWidthAtAgent, openingWidthAhead, type ClearWidthReading } from './readouts.ts';
export { autoDrive, type AutoDriveOptions, type AutoDriveResult } from './autoDrive.ts';
export { colliderWorldOf, colliderWorldFromObject, surfaceFromTriangles, type ColliderWorld } from './world.ts';
export { ShapeBuilder } from './shapes.ts';
