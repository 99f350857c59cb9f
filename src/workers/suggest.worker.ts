// The scene worker: suggestions (navmeshes and edge probes of engine/suggest) and the drive's motion
// planner (engine/planner), off the page's thread, on a copy of the scan (BVH included) sent once per scan.
import { createSceneService } from '../engine/suggest/sceneService.ts';
import type { SuggestReply, SuggestRequest } from '../engine/suggest/workerMessages.ts';

const reply = (m: SuggestReply) => (self as unknown as { postMessage: (m: SuggestReply) => void }).postMessage(m);
const handle = createSceneService(reply);
self.addEventListener('message', (event: MessageEvent<SuggestRequest>) => handle(event.data));
reply({ type: 'ready' });
