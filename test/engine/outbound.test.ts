/**
 * The outbound budget in the engine (issue "quoting", item 6): on a book that moves faster than
 * the budget allows requotes, the bot never sends more than the bucket lets through, keeps its
 * level-0 quotes up (they go first) and lets the deeper levels wait.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredQuote, MarketView, Strategy } from '../../src/core/index.ts';
import { constantLatency } from '../../src/backtest/latency.ts';
import { riskAverseQueue } from '../../src/backtest/queue-model.ts';
import { BacktestSession } from '../../src/backtest/session.ts';
import { DEFAULT_ENGINE_SETTINGS } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from './fixtures.ts';

/** Three levels a side, 5, 10 and 15 bps around the fair price. */
const threeLevels: Strategy = {
  name: 'three-levels',
  quote(view: MarketView): DesiredQuote[] {
    const fair = view.fair;
    if (fair === undefined) return [];
    return [0, 1, 2].flatMap((level) => [
      { side: 'buy' as const, price: fair * (1 - (5 + 5 * level) / 10_000), size: 0.01, level },
      { side: 'sell' as const, price: fair * (1 + (5 + 5 * level) / 10_000), size: 0.01, level },
    ]);
  },
};

describe('the outbound budget in the engine', () => {
  it('never sends more than burst + rate·t, keeps both level-0 quotes up and counts what it held back', async () => {
    // Every half second the fair price moves 2.5 bps: level 0 needs about 4 actions a second to
    // follow (one cancel and one placement a move), the two deeper levels as much again.
    const budget = { ratePerS: 5, burst: 8, reservedForCancels: 1 };
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
        initialBase: eth(10),
        initialQuote: usdc(50_000),
      },
      strategy: threeLevels,
      settings: { ...DEFAULT_ENGINE_SETTINGS, outbound: budget, reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0 },
      startMs: 0,
    });
    const sentAt: number[] = [];
    const venue = s.venue;
    const submit = venue.submitOrder.bind(venue);
    const cancel = venue.cancelOrder.bind(venue);
    venue.submitOrder = (order) => {
      sentAt.push(s.clock.nowMs());
      return submit(order);
    };
    venue.cancelOrder = (orderId) => {
      sentAt.push(s.clock.nowMs());
      return cancel(orderId);
    };
    await s.start();
    let bid = 200_000; // ticks of 0.01
    let bothSides = 0;
    let samples = 0;
    for (let t = 100; t <= 60_000; t += 100) {
      if (t % 500 === 0) bid += t % 3_000 < 1_500 ? 50 : -50;
      await s.advanceTo(t);
      s.clear();
      s.depth('buy', bid, 10_000);
      s.depth('sell', bid + 2, 10_000);
      s.endOfMessage();
      if (s.needsFlush()) await s.flush();
      const status = s.engine.status();
      samples++;
      if (status.bids.length > 0 && status.asks.length > 0) bothSides++;
    }
    const status = s.engine.status();
    // Never more than the bucket allows in any window: burst + rate × window.
    for (let i = 0; i < sentAt.length; i++) {
      const start = sentAt[i] as number;
      const inWindow = sentAt.filter((time) => time >= start && time < start + 1_000).length;
      expect(inWindow).toBeLessThanOrEqual(budget.burst + budget.ratePerS);
    }
    expect(sentAt.length).toBeLessThanOrEqual(budget.burst + budget.ratePerS * 60);
    expect(status.scorecard.throttled).toBeGreaterThan(0);
    // Level 0 goes first: the bot stays two-sided most of the time even so, while deeper levels wait.
    expect(bothSides / samples).toBeGreaterThan(0.8);
    expect(status.scorecard.ordersSent).toBeGreaterThan(60);
    await s.finish();
  });
});
