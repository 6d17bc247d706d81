// Worker thread of `akira-mm walkforward`: registers tsx so the TypeScript sources load without a
// build, then runs each job it is sent (a training cell or a test row) and answers with its result.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { runWalkforwardJob } = await import('./walkforward-job.ts');
const { UsageError } = await import('./io.ts');

parentPort.on('message', async ({ id, plan: job }) => {
  try {
    parentPort.postMessage({ id, ok: true, summary: await runWalkforwardJob(job) });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, usage: error instanceof UsageError, error: error instanceof Error ? error.message : String(error) });
  }
});
