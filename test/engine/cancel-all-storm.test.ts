/**
 * A cancel-all that fails after its 200 (chaos `cancel-all-fails`, seed 357684260: the venue's
 * rate limit refused 38 of our requests): each failure raised an alert, each alert started
 * another cancel-everything, each of those sent a cancel-all that failed in turn — a storm. One
 * pull at a time: its loop sends the cancel-all again, backing off, until nothing rests.
 */
import { describe, expect, it } from 'vitest';
import type { CancelOutcome, DesiredQuote, MarketView, Strategy, VenueListener } from '../../src/core/index.ts';
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

describe('a cancel-all that keeps failing after its 200', () => {
  it('is sent again by one backing-off loop, not once more per failure', async () => {
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
      settings: { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0, staleFeedMs: 1_000, shutdownTimeoutMs: 10_000 },
      startMs: 0,
    });
    const venue = s.venue;
    let listener: VenueListener | undefined;
    const start = venue.start.bind(venue);
    venue.start = (heard) => {
      listener = heard;
      return start(heard);
    };
    await s.start();
    const book = async (t: number): Promise<void> => {
      await s.advanceTo(t);
      s.clear();
      s.depth('buy', 199_900, 10_000);
      s.depth('sell', 200_100, 10_000);
      s.endOfMessage();
      if (s.needsFlush()) await s.flush();
    };
    await book(100);
    await book(200);
    expect(venue.exchange.restingOrders()).toHaveLength(2);
    // From now on the venue accepts every cancel-all and then fails it, saying so on the stream.
    let cancelAlls = 0;
    venue.cancelAll = (): Promise<CancelOutcome> => {
      cancelAlls++;
      const requestHash = `0x${cancelAlls}`;
      // The fail report comes over the stream, after the 200 (bounded, so a storm fails the test, not the worker).
      if (cancelAlls <= 200) queueMicrotask(() => listener?.onVenueAlert?.({ kind: 'request-failed', action: 'cancel-all', requestHash, orderId: undefined, reason: 'ACTION_FAILED', timeMs: s.clock.nowMs() }));
      return Promise.resolve({ kind: 'rejected', reason: 'failed after acceptance: ACTION_FAILED' });
    };
    // The feed goes quiet: the dead-man pauses quoting and pulls everything, for 3 s.
    for (let t = 300; t <= 3_300; t += 50) {
      await s.advanceTo(t);
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    expect(s.engine.status().state).toBe('paused');
    // One loop: 50, 100, 200, 400, 800 ms apart, then every second — about eight in 3 s, not hundreds.
    expect(cancelAlls).toBeGreaterThanOrEqual(3);
    expect(cancelAlls).toBeLessThanOrEqual(10);
  });
});
