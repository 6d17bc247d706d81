// Worker-thread entry of the signature pool. Node cannot run .ts in a worker by itself, so
// register tsx's loader first, then load the TypeScript body.
import { register } from 'tsx/esm/api';

register();
await import('./worker-body.ts');
