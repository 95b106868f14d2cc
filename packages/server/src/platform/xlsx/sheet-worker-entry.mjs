// The worker's entry point: Node starts a worker from JavaScript, so this registers tsx's loader (the
// server runs TypeScript through it, and a worker does not inherit a test runner's transform) and then
// loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./sheet-worker.ts');
