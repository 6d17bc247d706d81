import { describe, expect, it } from 'vitest';
import { ManualClock, createSilentLogger, type AccountState, type OrderReport, type Venue, type VenueListener } from '../../src/core/index.ts';
import { DEFAULT_ENGINE_SETTINGS, MarketMaker } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from '../engine/fixtures.ts';

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
    const engine = new MarketMaker({
      venue,
      strategy: { name: 'none', quote: () => [] },
      clock,
      logger: createSilentLogger(),
      settings: { ...DEFAULT_ENGINE_SETTINGS, startupOrders: 'cancel', reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0 },
    });
    await engine.start();
    for (let i = 0; i < 50; i++) await Promise.resolve();
    expect(cancelled()).toBe(true);
    expect(engine.status().state).toBe('quoting');
    expect(engine.status().haltReason).toBeUndefined();
    expect(engine.status().baseBalance).toBe(100);
    await engine.stop();
  });
});
