/**
 * The footprint motion planner behind the drive: terrain columns of the scan round an edge
 * (rasterize.ts, terrain.ts), each agent's map and pose lattice (agentMap.ts, poseSpace.ts), an A*
 * over poses (search.ts), the motion smoothed and confirmed by the exact collider (motion.ts,
 * confirm.ts), and the reason measured when there is none (diagnose.ts). decide.ts puts it together.
 */
export { SegmentPlanner, CELL_M, TUBE_M, type DriveDecision, type EdgeWay } from './decide.ts';
export { specOf } from './attempt.ts';
export { plannerWorld } from './world.ts';
export { driveScene, ScenePlanner, type SceneDrives } from './scene.ts';
