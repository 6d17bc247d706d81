import { describe, expect, it } from 'vitest';
import { ManualClock, createSilentLogger, type AccountState, type OrderReport, type Venue, type VenueListener } from '../../src/core/index.ts';
import { DEFAULT_ENGINE_SETTINGS } from '../../src/engine/index.ts';
import { ETH_USDC, eth, startAlone, usdc } from '../engine/fixtures.ts';

/**
 * Found by the chaos harness (SIGKILL, restart): a leftover order's report during the startup
 * cancel started a heal before the engine had taken its starting balances, so the heal compared
 * the venue's balances with an empty ledger and halted on "inventory drift".
 */
function leftoverVenue(): { venue: Venue; cancelled: () => boolean } {
  let listener: VenueListener | undefined;
  let open = true;
  const leftover: OrderReport = {
    orderId: '0xabc',
    status: 'PARTIALLY_FILLED',
    side: 'buy',
    priceUnits: usdc(1999),
    qtyUnits: eth(0.05),
    filledQtyUnits: eth(0.01),
    filledQuoteUnits: usdc(19.99),
    lastFillPriceUnits: usdc(1999),
    lastFillIsMaker: true,
    matcherResult: undefined,
    timeMs: 0,
  } as OrderReport;
  const account: AccountState = {
    balances: new Map([
      ['ETH', { total: eth(100), locked: 0n }],
      ['USDC', { total: usdc(200_000), locked: 0n }],
    ]),
    nonce: 0,
  };
  const venue: Venue = {
    start: async (l) => {
      listener = l;
      return { rules: ETH_USDC, makerFeePbips: 0, takerFeePbips: 0, steps: { trade: 0, cancel: 0, nonce: 0, withdraw: 0 } };
    },
    stop: async () => undefined,
    signOrder: async (intent) => ({ orderId: `0x${intent.priceUnits.toString(16)}`, intent }),
    submitOrder: async (order) => ({ kind: 'accepted', orderId: order.orderId }),
    prepareOrders: () => undefined,
    cancelOrder: async () => ({ kind: 'accepted' }),
    cancelAll: async () => {
      // The report of the leftover arrives while the startup cancel waits for confirmation.
      listener?.onOrderReport(leftover);
      open = false;
      return { kind: 'accepted' };
    },
    increaseNonce: async () => ({ kind: 'accepted' }),
    fetchOpenOrders: async () => (open ? [leftover] : []),
    fetchOrder: async () => ({ ...leftover, status: 'CANCELLED' }),
    fetchAccount: async () => account,
    gasQuote: () => undefined,
  };
  return { venue, cancelled: () => !open };
}

describe('engine start with leftover orders', () => {
  it('does not heal against an empty ledger while the startup cancel is in progress', async () => {
    const { venue, cancelled } = leftoverVenue();
    const clock = new ManualClock(1_000_000);
    const engine = await startAlone({
      venue,
      strategy: { name: 'none', quote: () => [] },
      clock,
      logger: createSilentLogger(),
      settings: { ...DEFAULT_ENGINE_SETTINGS, startupOrders: 'cancel', reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0 },
    });
    for (let i = 0; i < 50; i++) await Promise.resolve();
    expect(cancelled()).toBe(true);
    expect(engine.status().state).toBe('quoting');
    expect(engine.status().haltReason).toBeUndefined();
    expect(engine.status().baseBalance).toBe(100);
    await engine.stop();
  });
});

describe('engine shutdown while the exchange is unreachable', () => {
  it('does not take a failed open-orders listing for "nothing open": it retries until the venue confirms', async () => {
    const clock = new ManualClock(1_000_000);
    const order: OrderReport = {
      orderId: '0xdef',
      status: 'OPEN',
      side: 'sell',
      priceUnits: usdc(2001),
      qtyUnits: eth(0.05),
      filledQtyUnits: 0n,
      filledQuoteUnits: 0n,
      lastFillPriceUnits: undefined,
      lastFillIsMaker: undefined,
      matcherResult: undefined,
      timeMs: 0,
    } as OrderReport;
    let open = true;
    let failedListing = false;
    let failedLookup = false;
    let cancelAlls = 0;
    const venue: Venue = {
      start: async () => ({ rules: ETH_USDC, makerFeePbips: 0, takerFeePbips: 0, steps: { trade: 0, cancel: 0, nonce: 0, withdraw: 0 } }),
      stop: async () => undefined,
      signOrder: async (intent) => ({ orderId: '0x1', intent }),
      submitOrder: async (signed) => ({ kind: 'accepted', orderId: signed.orderId }),
      prepareOrders: () => undefined,
      cancelOrder: async () => ({ kind: 'accepted' }),
      cancelAll: async () => {
        // The first cancel-all is lost (the exchange went down); later ones land.
        if (++cancelAlls > 1) open = false;
        return { kind: 'unknown', reason: 'exchange restarting' };
      },
      increaseNonce: async () => ({ kind: 'accepted' }),
      fetchOpenOrders: async () => {
        // Right after the lost cancel-all, the exchange is unreachable once.
        if (cancelAlls === 1 && !failedListing) {
          failedListing = true;
          throw new Error('ECONNREFUSED');
        }
        return open ? [order] : [];
      },
      fetchOrder: async () => {
        if (cancelAlls === 1 && !failedLookup) {
          failedLookup = true;
          throw new Error('ECONNREFUSED');
        }
        return { ...order, status: open ? 'OPEN' : 'CANCELLED' };
      },
      fetchAccount: async () => ({ balances: new Map([['ETH', { total: eth(1), locked: 0n }], ['USDC', { total: usdc(2_000), locked: 0n }]]), nonce: 0 }),
      gasQuote: () => undefined,
    };
    const engine = await startAlone({
      venue,
      strategy: { name: 'none', quote: () => [] },
      clock,
      logger: createSilentLogger(),
      settings: { ...DEFAULT_ENGINE_SETTINGS, startupOrders: 'adopt', reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0, shutdownTimeoutMs: 10_000 },
    });
    let stopped = false;
    const stopping = engine.stop().then(() => (stopped = true));
    for (let i = 0; i < 200 && !stopped; i++) {
      for (let j = 0; j < 20; j++) await Promise.resolve();
      clock.advance(100);
    }
    await stopping;
    expect(cancelAlls).toBeGreaterThan(1);
    expect(open).toBe(false);
  });
});
