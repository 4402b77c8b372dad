// Bootstrap of the timing worker (rulesetTiming.ts): a worker thread does not inherit the tsx loader,
// so register it here before loading the TypeScript, as the service's rules worker does.
import { register } from 'tsx/esm/api';

register();
await import('./rulesetTiming.ts');
