// Parses PLY and OBJ off the page's thread; the work itself is engine/mesh/parseHandler.ts.
import { handleParseRequest } from '../engine/mesh/parseHandler.ts';
import { serveRequests, type WorkerScopeLike } from '../engine/mesh/workerProtocol.ts';

serveRequests(self as unknown as WorkerScopeLike, handleParseRequest);
