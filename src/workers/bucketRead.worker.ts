// The bucket-read worker: a project's stored buckets read and inflated off the page's thread on a
// reload (persistence/bucketPages.ts says why).
import { bucketReadService } from '../persistence/bucketPages.ts';
import { serve, type WorkerScopeLike } from '../engine/workerPort.ts';

serve(self as unknown as WorkerScopeLike, bucketReadService(indexedDB));
