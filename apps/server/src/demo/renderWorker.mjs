// Bootstrap of the demo's live render thread (framesSource.ts): the sources are TypeScript run through
// tsx (no build step), so register tsx in this thread before loading the real worker module.
import { register } from 'tsx/esm/api';

register();
await import('./renderWorkerMain.ts');
