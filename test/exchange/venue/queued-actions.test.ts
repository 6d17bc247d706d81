/**
 * Queued actions confirmed (issue 11 item 4) and fast cancels (item 5), by the live venue against
 * the embedded exchange, with the sim's fault injection failing or swallowing the action after
 * its 200. The sim runs on a manual clock (a queued nonce increase applies only when the test
 * moves it); the venue polls on a live clock with short bounds, so each wait is at most ~1 s.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock, ManualClock, createRng, createSilentLogger, type OrderIntent, type VenueAlert, type VenueListener } from '../../../src/core/index.ts';
import { createLiveVenue, type ConfirmSettings, type LiveVenue } from '../../../src/exchange/index.ts';
import { startSim, type SimHandle } from '../../../src/sim/index.ts';
import { devVenueConfig } from '../../integration/support.ts';

const ETH = 10n ** 18n;
const FAST_CONFIRM: ConfirmSettings = {
  cancelAll: { boundMs: 1_000, firstPollMs: 20, maxPollMs: 100 },
  nonce: { boundMs: 1_500, firstPollMs: 20, maxPollMs: 100 },
  withdraw: { boundMs: 1_500, firstPollMs: 20, maxPollMs: 100 },
};

let sim: SimHandle | undefined;
let live: LiveVenue | undefined;
afterEach(async () => {
  await live?.stop();
  await sim?.stop();
  live = undefined;
  sim = undefined;
});

interface Setup {
  readonly sim: SimHandle;
  readonly simClock: ManualClock;
  readonly live: LiveVenue;
  readonly alerts: VenueAlert[];
  readonly resyncs: string[];
  readonly account: bigint;
}

async function setup(options: { fastCancel?: boolean } = {}): Promise<Setup> {
  const simClock = new ManualClock(Date.now());
  const started = await startSim({ seed: 0, flow: false, devAccounts: 2, signatureWorkers: 0, clock: simClock, settings: { nonceDelayMs: 1_000 } });
  sim = started;
  // The withdrawals below pay the account itself: the signing policy must list it (default: none).
  const self = started.accounts[0]!.address;
  const signingPolicy = { chain: 'mainnet' as const, account: self, pairs: [{ base: 'ETH', quote: 'USDC' }], withdrawReceivers: [self] };
  const venue = createLiveVenue(
    { ...devVenueConfig(started, 0, 0), confirm: FAST_CONFIRM, signingPolicy, ...(options.fastCancel === true ? { fastCancel: true } : {}) },
    { clock: new LiveClock(), rng: createRng(5), logger: createSilentLogger() },
  );
  live = venue;
  const alerts: VenueAlert[] = [];
  const resyncs: string[] = [];
  const listener: VenueListener = {
    onTopOfBook: () => undefined,
    onTrade: () => undefined,
    onOrderReport: () => undefined,
    onGasQuote: () => undefined,
    onResync: (reason) => resyncs.push(reason),
    onFeedStatus: () => undefined,
    onVenueAlert: (alert) => alerts.push(alert),
  };
  await venue.start(listener);
  return { sim: started, simClock, live: venue, alerts, resyncs, account: started.accounts[0]!.address };
}

/**
 * Waits for `pending`, moving the sim's clock on by the nonce delay whenever a nonce increase sits
 * in its queue (its gas is locked until then): the venue's confirmation loop sees it applied.
 */
async function applyingNonces<T>(setup: Setup, pending: Promise<T>): Promise<T> {
  let done = false;
  void pending.finally(() => (done = true));
  while (!done) {
    if ((setup.sim.balancesOf(setup.account).get('STRK')?.locked ?? 0n) > 0n) setup.simClock.advance(setup.sim.settings.nonceDelayMs);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return pending;
}

async function rest(venue: LiveVenue, priceUsdc: bigint): Promise<string> {
  const intent: OrderIntent = { side: 'buy', priceUnits: priceUsdc * 1_000_000n, qtyUnits: ETH / 20n, postOnly: true };
  const outcome = await venue.submitOrder(await venue.signOrder(intent));
  if (outcome.kind !== 'accepted') throw new Error(JSON.stringify(outcome));
  return outcome.orderId;
}

describe('cancel-all confirmed', () => {
  it('is accepted only once the venue lists none of our orders', async () => {
    const { sim: venue, live: bot, account, alerts } = await setup();
    await rest(bot, 1500n);
    await rest(bot, 1490n);
    await venue.idle();
    expect(venue.openOrdersOf(account)).toHaveLength(2);
    expect(await bot.cancelAll()).toEqual({ kind: 'accepted' });
    expect(venue.openOrdersOf(account)).toHaveLength(0);
    expect(alerts).toEqual([]);
  });

  it('returns rejected and alerts the engine when the venue fails it after the 200', async () => {
    const { sim: venue, live: bot, account, alerts } = await setup();
    await rest(bot, 1500n);
    await venue.idle();
    venue.faults.set({ queuedActionFailRate: 1 });
    const outcome = await bot.cancelAll();
    expect(outcome).toEqual({ kind: 'rejected', reason: 'failed after acceptance: ACTION_FAILED (fault injection)' });
    expect(alerts).toMatchObject([{ kind: 'request-failed', action: 'cancel-all', reason: 'ACTION_FAILED (fault injection)' }]);
    expect(venue.openOrdersOf(account)).toHaveLength(1);
  });

  it('sends it again halfway when nothing happened, and is accepted once the second one works', async () => {
    const { sim: venue, live: bot, account } = await setup();
    await rest(bot, 1500n);
    await venue.idle();
    // The first cancel-all is swallowed; the retry (after half the 1 s bound) goes through.
    let dropped = 0;
    venue.faults.queuedActionFault = () => (dropped++ === 0 ? 'drop' : undefined);
    expect(await bot.cancelAll()).toEqual({ kind: 'accepted' });
    expect(dropped).toBe(2);
    expect(venue.openOrdersOf(account)).toHaveLength(0);
  });

  it('is unconfirmed past the bound when the venue never acts, and says so to the engine', async () => {
    const { sim: venue, live: bot, account, alerts } = await setup();
    await rest(bot, 1500n);
    await venue.idle();
    venue.faults.set({ queuedActionDropRate: 1 });
    const outcome = await bot.cancelAll();
    expect(outcome.kind).toBe('unconfirmed');
    expect(alerts).toMatchObject([{ kind: 'action-unconfirmed', action: 'cancel-all' }]);
    expect(venue.openOrdersOf(account)).toHaveLength(1);
  });
});

describe('increase-nonce confirmed', () => {
  it('is accepted once user_info shows the new nonce, which later orders carry', async () => {
    const test = await setup();
    const { sim: venue, live: bot, account } = test;
    expect(await applyingNonces(test, bot.increaseNonce())).toEqual({ kind: 'accepted' });
    expect(venue.nonceOf(account)).toBe(1);
    await rest(bot, 1500n);
    await venue.idle();
    expect(venue.openOrdersOf(account)[0]?.request.constraints.nonce).toBe(1);
  });

  it('is sent again with fresh gas when the gas price rose past its maximum while it was queued', async () => {
    const test = await setup();
    const { sim: venue, live: bot, account, alerts } = test;
    const pending = bot.increaseNonce();
    // Accepted at the old price (its gas locked); processed after the price doubled: WRONG_MAX_GAS_PRICE.
    let raised = false;
    while (!raised) {
      if ((venue.balancesOf(account).get('STRK')?.locked ?? 0n) > 0n) {
        venue.setGasPriceFri(venue.gasPriceFri() * 2n);
        raised = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(await applyingNonces(test, pending)).toEqual({ kind: 'accepted' });
    expect(venue.nonceOf(account)).toBe(2);
    expect(alerts).toEqual([]);
  });

  it('returns rejected with the venue’s reason when it fails for another reason', async () => {
    const test = await setup();
    const { sim: venue, live: bot, account, alerts } = test;
    venue.faults.set({ queuedActionFailRate: 1 });
    expect(await applyingNonces(test, bot.increaseNonce())).toMatchObject({ kind: 'rejected', reason: 'failed after acceptance: ACTION_FAILED (fault injection)' });
    expect(venue.nonceOf(account)).toBe(0);
    expect(alerts).toMatchObject([{ kind: 'request-failed', action: 'increase-nonce' }]);
  });
});

describe('withdraw confirmed', () => {
  it('is accepted once the venue reports it settled, with the request hash to follow', async () => {
    const { sim: venue, live: bot, account } = await setup();
    const before = venue.balancesOf(account).get('USDT')?.free ?? 0n;
    const outcome = await bot.withdraw('USDT', 10_000_000n);
    expect(outcome).toMatchObject({ kind: 'accepted', requestHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(venue.balancesOf(account).get('USDT')?.free).toBe(before - 10_000_000n);
  });

  it('is rejected, and its funds unlocked, when the venue fails it after the 200', async () => {
    const { sim: venue, live: bot, account, alerts } = await setup();
    const before = venue.balancesOf(account).get('USDT');
    venue.faults.set({ queuedActionFailRate: 1 });
    expect(await bot.withdraw('USDT', 10_000_000n)).toMatchObject({ kind: 'rejected' });
    await venue.idle();
    expect(venue.balancesOf(account).get('USDT')).toEqual(before);
    expect(alerts).toMatchObject([{ kind: 'request-failed', action: 'withdraw' }]);
  });
});

describe('fast cancels (FAST_CANCEL=on)', () => {
  it('obtains a key at start and cancels one order and all orders without signing', async () => {
    const { sim: venue, live: bot, account } = await setup({ fastCancel: true });
    expect(bot.fastSignStats()).toMatchObject({ issued: 1, failures: 0 });
    const first = await rest(bot, 1500n);
    await rest(bot, 1490n);
    await venue.idle();
    expect(await bot.cancelOrder(first)).toEqual({ kind: 'accepted' });
    expect(await bot.cancelAll()).toEqual({ kind: 'accepted' });
    expect(venue.openOrdersOf(account)).toHaveLength(0);
    expect(bot.cancelStats()).toEqual({ fastCancels: 2, signedCancels: 0 });
  });

  it('signs cancels as usual when FAST_CANCEL is off', async () => {
    const { sim: venue, live: bot } = await setup();
    const id = await rest(bot, 1500n);
    await venue.idle();
    expect(await bot.cancelOrder(id)).toEqual({ kind: 'accepted' });
    expect(bot.fastSignStats()).toBeUndefined();
    expect(bot.cancelStats()).toEqual({ fastCancels: 0, signedCancels: 1 });
  });
});
