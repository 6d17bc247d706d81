/**
 * A cancel that never took (reset before the venue applied it, or failed after its 200) must not
 * leave the order resting beside its replacement: the heal sees it still listed and sends the
 * cancel again (chaos "no-duplicate-intent": two of our orders at one side and price).
 */
import { describe, expect, it } from 'vitest';
import type { DesiredQuote, MarketView, Strategy } from '../../src/core/index.ts';
import { constantLatency } from '../../src/backtest/latency.ts';
import { riskAverseQueue } from '../../src/backtest/queue-model.ts';
import { BacktestSession } from '../../src/backtest/session.ts';
import { DEFAULT_ENGINE_SETTINGS } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from './fixtures.ts';

const fixed: Strategy = {
  name: 'fixed',
  quote: (view: MarketView): DesiredQuote[] =>
    view.fair === undefined
      ? []
      : [
          { side: 'buy', price: view.fair - 0.5, size: 0.1, level: 0 },
          { side: 'sell', price: view.fair + 0.5, size: 0.1, level: 0 },
        ],
};

describe('a cancel that never took', () => {
  it('is sent again once the heal finds the order still resting, so no second order joins it', async () => {
    const s = new BacktestSession({
      venue: {
        rules: ETH_USDC,
        makerFeePbips: 0,
        takerFeePbips: 0,
        steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
        gasPriceUnits: 10n ** 13n,
        quotePerStrk: 0.5,
        latency: constantLatency(5),
        feedLatencyMs: 0,
        queue: riskAverseQueue,
        initialBase: eth(1),
        initialQuote: usdc(5_000),
      },
      strategy: fixed,
      settings: { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0 },
      startMs: 0,
    });
    const venue = s.venue;
    const cancel = venue.cancelOrder.bind(venue);
    let lost = 0;
    venue.cancelOrder = (orderId) => {
      // The first cancel is lost on the wire: the venue never saw it, the answer never came.
      if (lost++ === 0) return Promise.resolve({ kind: 'unknown', reason: 'connection reset before the request was applied' });
      return cancel(orderId);
    };
    await s.start();
    const book = async (t: number, bid: number, ask: number): Promise<void> => {
      await s.advanceTo(t);
      s.clear();
      s.depth('buy', Math.round(bid * 100), 10_000);
      s.depth('sell', Math.round(ask * 100), 10_000);
      s.endOfMessage();
      if (s.needsFlush()) await s.flush();
    };
    await book(100, 1999, 2001);
    await book(200, 1999, 2001);
    expect(s.venue.exchange.restingOrders().map((o) => o.side).sort()).toEqual(['buy', 'sell']);
    // The fair price drops 0.3 USDC: the bid (still under the best ask) is too aggressive and is
    // replaced; its cancel is lost.
    await book(300, 1998.7, 2000.7);
    await book(400, 1998.7, 2000.7);
    const bidsNow = (): number => s.venue.exchange.restingOrders().filter((o) => o.side === 'buy').length;
    expect(bidsNow()).toBe(2);
    // Time passes; the heal the lost cancel asked for looks again once the cancel is overdue.
    for (let t = 500; t <= 3_000; t += 100) await book(t, 1998.7, 2000.7);
    expect(bidsNow()).toBe(1);
    expect(s.venue.exchange.restingOrders().find((o) => o.side === 'buy')?.priceTicks).toBe(Math.round((1999.7 - 0.5) * 100));
    await s.finish();
  });
});
