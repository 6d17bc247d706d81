/**
 * `akira-mm preflight` (issue 11 item 6): every check of a live setup before money is at risk, in
 * order, each reported as it completes. Checks that need an earlier one (login before balances,
 * everything before the order test) are skipped, not run blind.
 */
import type { RestClient } from '../client/index.ts';
import type { LiveVenue } from '../venue/index.ts';
import { runOrderTest } from './order-test.ts';
import { checkStream } from './stream-checks.ts';
import type { CheckResult, PreflightDeps, PreflightLimits, PreflightTarget } from './types.ts';
import { checkVenue } from './venue-checks.ts';

export { DEFAULT_PREFLIGHT_LIMITS, type CheckResult, type PreflightDeps, type PreflightLimits, type PreflightTarget, type QuotePlan } from './types.ts';

/** What one preflight run needs. */
export interface PreflightInput {
  readonly target: PreflightTarget;
  readonly limits: PreflightLimits;
  readonly deps: PreflightDeps;
  readonly rest: RestClient;
  /** Given: `--order-test`, with the live venue the bot would run. */
  readonly orderTestVenue?: () => LiveVenue;
}

/** Runs every check; `report` sees each result as it comes. Closes the REST client. */
export async function runPreflight(input: PreflightInput, report: (result: CheckResult) => void): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const record = (result: CheckResult): void => {
    results.push(result);
    report(result);
  };
  const { target, limits, deps, rest } = input;
  try {
    const facts = await checkVenue(target, rest, deps, record);
    if (facts.loggedIn) await checkStream(target, rest, limits, deps, record);
    else for (const name of ['WS', 'first frames', 'clock skew']) record({ name, status: 'skip', detail: 'needs a login' });
    if (input.orderTestVenue !== undefined) {
      const failed = results.filter((result) => result.status === 'fail').map((result) => result.name);
      if (failed.length > 0) record({ name: 'order test', status: 'fail', detail: `not run: ${[...new Set(failed)].join(', ')} failed`, fix: 'fix the failures above first' });
      else await runOrderTest(input.orderTestVenue(), target, facts, limits, deps, record);
    }
  } finally {
    await rest.close();
  }
  return results;
}
