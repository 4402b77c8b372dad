// Bootstrap of the detection thread (threadedTrackingEngine.ts): the sources are TypeScript run through
// tsx (no build step), so register tsx in this thread before loading the real worker module.
import { register } from 'tsx/esm/api';

register();
await import('./detectionWorkerMain.ts');
