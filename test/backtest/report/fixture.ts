/** A small synthetic run (two minutes, two fills) for the report tests. */
import type { BootstrapOptions } from '../../../src/backtest/error-bars.ts';
import type { FillRecord } from '../../../src/backtest/session.ts';
import type { PathSample } from '../../../src/backtest/stats.ts';
import { summarize, type BacktestSummary } from '../../../src/backtest/summary.ts';

export const START_MS = 1_723_161_600_000;

export const samples: PathSample[] = Array.from({ length: 120 }, (_, i) => {
  const mid = 2_000 + Math.sin(i / 10) * 2;
  const pnl = i / 10;
  return {
    timeMs: START_MS + (i + 1) * 1_000,
    mid,
    bid: mid - 0.5,
    ask: i % 10 === 0 ? mid + 0.01 : mid + 0.5,
    bestBid: mid - 0.01,
    bestAsk: mid + 0.01,
    inventory: Math.sin(i / 7) * 0.3,
    pnl,
    components: { spread: pnl * 0.8, inventory: pnl * 0.3, fees: -pnl * 0.08, gas: -pnl * 0.02 },
  };
});

export const fills: FillRecord[] = [
  { timeMs: START_MS + 5_000, orderId: 'replay-1', side: 'buy', price: 1_999.5, size: 0.1, isMaker: true, feeQuote: 0.02 },
  { timeMs: START_MS + 40_500, orderId: 'replay-2', side: 'sell', price: 2_001.2, size: 0.1, isMaker: false, feeQuote: 0.04 },
];

/** Forty fills, one every 3 s, sides alternating: enough for the markout curve's intervals. */
export const manyFills: FillRecord[] = Array.from({ length: 40 }, (_, i) => {
  const timeMs = START_MS + 1_500 + i * 3_000;
  const mid = 2_000 + Math.sin((timeMs - START_MS) / 10_000) * 2;
  const side = i % 2 === 0 ? 'buy' : 'sell';
  return { timeMs, orderId: `replay-${i}`, side, price: side === 'buy' ? mid - 0.3 : mid + 0.3, size: 0.1, isMaker: true, feeQuote: 0.02 };
});

/** The summary of the run; `scorecard` replaces parts of the engine's scorecard; `run` other fills and bootstrap settings. */
export function summary(scorecard: { ordersSent?: number; timeAtTouch?: number } = {}, run: { fills?: FillRecord[]; bootstrap?: BootstrapOptions } = {}): BacktestSummary {
  const status = {
    state: 'stopped' as const,
    haltReason: undefined,
    pauseReason: undefined,
    mid: 2_000,
    touch: { bid: 1_999.9, ask: 2_000.1 },
    bids: [],
    asks: [],
    baseBalance: 1,
    quoteBalance: 2_000,
    pnl: { realized: 1, unrealized: 0, total: 1, feesPaid: 0.06, gasPaid: 0, position: 0, averageCost: undefined, volumeBase: 0.2, fills: 2, makerFills: 1, takerFills: 1 },
    markouts: { meanBps: [1, 2, undefined], counts: [2, 2, 0] },
    twoSidedUptime: 0.9,
    reference: undefined,
    fair: 2_000,
    position: 0,
    inventoryCap: 0.25,
    scorecard: {
      twoSidedUptime: 0.9,
      timeAtTouch: scorecard.timeAtTouch ?? 0.1,
      capBreaches: 0,
      quotingMs: 120_000,
      ordersSent: scorecard.ordersSent ?? 40,
      cancelsSent: 38,
      placedQtyUnits: 4n * 10n ** 18n,
      throttled: 3,
      gated: 0,
      rejected: 0,
      fills: 2,
      ordersPerFill: (scorecard.ordersSent ?? 40) / 2,
      fillRatio: 0.05,
      pnl: { spread: 9.6, inventory: 3.6, fees: 0.96, gas: 0.24, total: 12 },
    },
  };
  // 5 s blocks: the 2-minute run spans 24, past the 20 an interval needs.
  return summarize({ events: 1_000, status, samples, fills: run.fills ?? fills, sampleMs: 1_000, wallSeconds: 0.01, startMs: START_MS, endMs: START_MS + 120_000, bootstrap: run.bootstrap ?? { blockMs: 5_000, samples: 1_000, seed: 1 } });
}
