// Welds the collision geometry, builds its BVH and finds floors off the page's thread; the work
// itself is engine/mesh/collisionBuild.ts.
import { buildCollision } from '../engine/mesh/collisionBuild.ts';
import { serveRequests, type WorkerScopeLike } from '../engine/mesh/workerProtocol.ts';

serveRequests(self as unknown as WorkerScopeLike, buildCollision);
