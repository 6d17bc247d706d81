/**
 * `--order-test`: one post-only bid far below the touch (90 % of the best bid, the minimum size),
 * its OPEN report on our fills stream, its cancel and the CANCELLED report, timed. Runs through
 * the same live venue the bot uses, so it proves signing, the fee fields, the nonce and the
 * stream end to end. Whatever happens, it leaves nothing resting (cancel-all on the way out).
 */
import { formatUnits, roundPassivePrice, roundToStep, type OrderReport, type OrderStatus, type VenueListener } from '../../core/index.ts';
import type { LiveVenue } from '../venue/index.ts';
import type { CheckResult, PreflightDeps, PreflightLimits, PreflightTarget } from './types.ts';
import type { VenueFacts } from './venue-checks.ts';

type Report = (result: CheckResult) => void;

/** Places, confirms, cancels and confirms one far-away order, timing each leg. */
export async function runOrderTest(venue: LiveVenue, target: PreflightTarget, facts: VenueFacts, limits: PreflightLimits, deps: PreflightDeps, report: Report): Promise<void> {
  const reports: OrderReport[] = [];
  let wake: () => void = () => undefined;
  const listener: VenueListener = {
    onTopOfBook: () => undefined,
    onTrade: () => undefined,
    onOrderReport: (orderReport) => {
      reports.push({ ...orderReport, timeMs: deps.clock.nowMs() });
      wake();
    },
    onGasQuote: () => undefined,
    onResync: () => undefined,
    onFeedStatus: () => undefined,
  };
  const name = 'order test';
  let info;
  try {
    info = await venue.start(listener);
  } catch (error) {
    report({ name, status: 'fail', detail: `the live venue did not start: ${error instanceof Error ? error.message : String(error)}`, fix: 'fix the failed checks above first' });
    return;
  }
  let orderId: string | undefined;
  try {
    const reference = facts.bestBidUnits ?? facts.midUnits ?? facts.bestAskUnits;
    if (reference === undefined) {
      report({ name, status: 'fail', detail: 'the book is empty: no touch to stay far from', fix: 'run the order test when the book has orders' });
      return;
    }
    const rules = info.rules;
    const priceUnits = roundPassivePrice((reference * 9n) / 10n, 'buy', rules);
    const qtyUnits = roundToStep(rules.minQty, rules.qtyStep, 'up');
    const what = `post-only bid ${formatUnits(qtyUnits, target.base.decimals)} ${target.base.symbol} @ ${formatUnits(priceUnits, target.quote.decimals)} ${target.quote.symbol}`;
    const signed = await venue.signOrder({ side: 'buy', priceUnits, qtyUnits, postOnly: true });
    orderId = signed.orderId;
    const placeStart = deps.clock.nowMs();
    const placed = await venue.submitOrder(signed);
    const placeMs = deps.clock.nowMs() - placeStart;
    if (placed.kind !== 'accepted') {
      report({ name, status: 'fail', detail: `${what} ${placed.kind}: ${placed.reason}`, fix: 'the venue refused a correctly priced order: see the reason (fees, nonce, gas, balance)' });
      return;
    }
    const open = await waitFor(reports, orderId, ['OPEN', 'PARTIALLY_FILLED', 'NOT_PROCESSED', 'CANCELLED', 'EXPIRED'], limits.orderTestTimeoutMs, deps, (resolve) => (wake = resolve));
    if (open?.status !== 'OPEN') {
      report({ name, status: 'fail', detail: `${what} accepted in ${placeMs} ms, then ${open === undefined ? `no report within ${limits.orderTestTimeoutMs} ms` : `${open.status} (${open.matcherResult ?? 'no matcher result'})`}`, fix: 'check the fills stream subscription and the account' });
      return;
    }
    const cancelStart = deps.clock.nowMs();
    const cancelled = await venue.cancelOrder(orderId);
    const cancelMs = deps.clock.nowMs() - cancelStart;
    const gone = await waitFor(reports, orderId, ['CANCELLED'], limits.orderTestTimeoutMs, deps, (resolve) => (wake = resolve));
    if (cancelled.kind !== 'accepted' || gone === undefined) {
      report({ name, status: 'fail', detail: `${what} placed in ${placeMs} ms; cancel ${cancelled.kind}${gone === undefined ? ', no CANCELLED report' : ''}`, fix: 'cancels must work before real money: check the signer and the fills stream' });
      return;
    }
    orderId = undefined;
    report({
      name,
      status: 'pass',
      detail: `${what}: placed in ${placeMs} ms, OPEN report ${open.timeMs - placeStart} ms after sending; cancelled in ${cancelMs} ms, CANCELLED report ${gone.timeMs - cancelStart} ms after sending`,
    });
  } catch (error) {
    report({ name, status: 'fail', detail: error instanceof Error ? error.message : String(error) });
  } finally {
    if (orderId !== undefined) await venue.cancelAll().catch(() => undefined);
    await venue.stop();
  }
}

async function waitFor(
  reports: readonly OrderReport[],
  orderId: string,
  statuses: readonly OrderStatus[],
  timeoutMs: number,
  deps: PreflightDeps,
  onWake: (resolve: () => void) => void,
): Promise<OrderReport | undefined> {
  const deadline = deps.clock.nowMs() + timeoutMs;
  for (;;) {
    const found = reports.find((entry) => entry.orderId === orderId && statuses.includes(entry.status));
    if (found !== undefined || deps.clock.nowMs() >= deadline) return found;
    await new Promise<void>((resolve) => {
      onWake(resolve);
      deps.clock.setTimeout(resolve, Math.max(1, deadline - deps.clock.nowMs()), { unref: true });
    });
  }
}
