// Worker entry of the signing pool. Node cannot run .ts in a worker by itself, so register tsx's
// loader first and then load the TypeScript worker body.
import { register } from 'tsx/esm/api';

register();
await import('./pool-worker-body.ts');
