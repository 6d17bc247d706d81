/**
 * The one way engines start (`startEngines`), for N ≥ 1 pairs on one account: each engine is built
 * from what its venue said at start (nothing in it waits to be known), the events a venue sends
 * while it starts have nothing to update yet, and a pair that cannot start stops every other.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock, createSilentLogger, type AccountState, type BestBidOffer, type TickerRules, type Venue, type VenueListener } from '../../src/core/index.ts';
import { Account, DEFAULT_ENGINE_SETTINGS, NO_ACCOUNT_LIMITS, startEngines, type PairStart } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from './fixtures.ts';

const STRK_USDC: TickerRules = { ...ETH_USDC, base: 'STRK' };

/** A venue that quotes nothing back: its start can send a top first, or fail; it counts its stops. */
function fakeVenue(rules: TickerRules, options: { readonly topWhileStarting?: BestBidOffer; readonly refuse?: string } = {}): Venue & { listener: VenueListener | undefined; stops: number } {
  const account: AccountState = {
    balances: new Map([
      [rules.base, { total: eth(10), locked: 0n }],
      [rules.quote, { total: usdc(50_000), locked: 0n }],
    ]),
    nonce: 0,
  };
  const venue = {
    listener: undefined as VenueListener | undefined,
    stops: 0,
    start: async (listener: VenueListener) => {
      venue.listener = listener;
      if (options.topWhileStarting !== undefined) listener.onTopOfBook(options.topWhileStarting);
      if (options.refuse !== undefined) throw new Error(options.refuse);
      return { rules, makerFeePbips: 0, takerFeePbips: 0, steps: { trade: 0, cancel: 0, nonce: 0, withdraw: 0 } };
    },
    stop: async () => {
      venue.stops++;
    },
    signOrder: async (intent: Parameters<Venue['signOrder']>[0]) => ({ orderId: `0x${intent.priceUnits.toString(16)}`, intent }),
    submitOrder: async (order: { orderId: string }) => ({ kind: 'accepted' as const, orderId: order.orderId }),
    prepareOrders: () => undefined,
    cancelOrder: async () => ({ kind: 'accepted' as const }),
    cancelAll: async () => ({ kind: 'accepted' as const }),
    increaseNonce: async () => ({ kind: 'accepted' as const }),
    fetchOpenOrders: async () => [],
    fetchOrder: async () => undefined,
    fetchAccount: async () => account,
    gasQuote: () => undefined,
  };
  return venue;
}

function top(bid: number, ask: number, timeMs: number): BestBidOffer {
  return { bidPriceUnits: usdc(bid), bidQtyUnits: eth(1), askPriceUnits: usdc(ask), askQtyUnits: eth(1), timeMs };
}

function accountOf(venue: Venue, rules: readonly TickerRules[]): Account {
  return new Account({
    clock: new ManualClock(0),
    logger: createSilentLogger(),
    venue,
    pairs: rules.map((pair) => ({ name: `${pair.base}/${pair.quote}`, base: pair.base, quote: pair.quote, budgetBaseUnits: undefined, budgetQuoteUnits: undefined })),
    outbound: DEFAULT_ENGINE_SETTINGS.outbound,
    limits: () => NO_ACCOUNT_LIMITS,
    driftToleranceUnits: DEFAULT_ENGINE_SETTINGS.driftToleranceUnits,
  });
}

function pairStart(venue: Venue, rules: TickerRules, clock: ManualClock): PairStart {
  return {
    pairName: `${rules.base}/${rules.quote}`,
    venue,
    strategy: { name: 'none', quote: () => [] },
    clock,
    logger: createSilentLogger(),
    settings: { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0 },
  };
}

describe('startEngines', () => {
  it('builds the engine from what the venue said, drops what the venue sent while starting, and hears it from then on', async () => {
    const clock = new ManualClock(1_000);
    const venue = fakeVenue(ETH_USDC, { topWhileStarting: top(1_999, 2_001, 1_000) });
    const [engine] = await startEngines(accountOf(venue, [ETH_USDC]), [pairStart(venue, ETH_USDC, clock)]);
    expect(engine?.status()).toMatchObject({ state: 'quoting', mid: undefined, baseBalance: 10, quoteBalance: 50_000 });
    venue.listener?.onTopOfBook(top(2_999, 3_001, 1_001));
    expect(engine?.status().mid).toBe(3_000);
    await engine?.stop();
  });

  it('stops every pair that started when one pair cannot, and throws that pair\'s reason', async () => {
    const clock = new ManualClock(1_000);
    const eth = fakeVenue(ETH_USDC);
    const strk = fakeVenue(STRK_USDC, { refuse: 'STRK/USDC (ecosystem book) is not listed' });
    await expect(startEngines(accountOf(eth, [ETH_USDC, STRK_USDC]), [pairStart(eth, ETH_USDC, clock), pairStart(strk, STRK_USDC, clock)])).rejects.toThrow('STRK/USDC (ecosystem book) is not listed');
    // The pair that started was stopped (its engine's stop closes its venue); the one that failed, closed too.
    expect(eth.stops).toBe(1);
    expect(strk.stops).toBe(1);
  });
});
