// The scene worker: suggestions (navmeshes and edge probes of engine/suggest) and the drive's motion
// planner (engine/planner), off the page's thread, on a copy of the scan (BVH included) sent once per scan.
import { createSceneService } from '../engine/suggest/sceneService.ts';
import { serve, type WorkerScopeLike } from '../engine/workerPort.ts';

serve(self as unknown as WorkerScopeLike, createSceneService);
