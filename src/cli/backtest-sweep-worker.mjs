// Worker thread of `akira-mm backtest --sweep`: registers tsx so the TypeScript sources load
// without a build, then runs each plan it is sent and answers with the deterministic summary.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { runSweepJob } = await import('./backtest-plan.ts');
const { UsageError } = await import('./io.ts');

parentPort.on('message', async ({ id, plan }) => {
  try {
    parentPort.postMessage({ id, ok: true, summary: await runSweepJob(plan) });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, usage: error instanceof UsageError, error: error instanceof Error ? error.message : String(error) });
  }
});
