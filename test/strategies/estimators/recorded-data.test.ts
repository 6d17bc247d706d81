import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MarketView, StrategyDefinition } from '../../../src/core/index.ts';
import { AVELLANEDA_STOIKOV, GLFT, LADDER, MarketEstimators, buildMarketView } from '../../../strategies/index.ts';
import { makeInventory, parseOrThrow } from '../fixtures.ts';

// Recorded data lives in ../shared/data next to the repository (also one level up, for worktrees).
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const dataDir = [join(repoRoot, '../shared/data'), join(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

/** Binance's rules for the two recordings: the tick is 0.01 on both, the lot 24 times apart in money. */
const TICKERS = {
  ethusdt: { tickSize: 0.01, lotSize: 0.0001, minSize: 0.0001, makerFee: 0.0001, takerFee: 0.001 },
  btcusdt: { tickSize: 0.01, lotSize: 0.00001, minSize: 0.00001, makerFee: 0.0001, takerFee: 0.001 },
} as const;

/**
 * Replays a recording's top of book and trades through the estimators (depth in bps of the mid,
 * the default grid) and calls `onView` with the view at every `every`-th top of book.
 */
function replay(symbol: keyof typeof TICKERS, every: number, onView: (view: MarketView) => void): MarketView {
  const estimators = new MarketEstimators({ arrival: { bucketWidthBps: 0.05 } });
  let bid = { price: 0, size: 0 };
  let ask = { price: 0, size: 0 };
  let lastMs = 0;
  let tops = 0;
  const viewAt = (timeMs: number): MarketView => buildMarketView({ timeMs, bid, ask, ...estimators.values(timeMs), ticker: TICKERS[symbol] });
  for (const file of [`${symbol}_20240808.gz`, `${symbol}_20240809.gz`]) {
    const text = gunzipSync(readFileSync(join(dataDir as string, 'binance-spot-hftbacktest', file))).toString('utf8');
    for (const line of text.split('\n')) {
      const space = line.indexOf(' ');
      if (space < 0) continue;
      const message = JSON.parse(line.slice(space + 1)) as { stream?: string; data?: Record<string, unknown> };
      const data = message.data;
      if (message.stream === undefined || data === undefined) continue;
      lastMs = Number(line.slice(0, space)) / 1e6;
      if (message.stream.endsWith('@bookTicker')) {
        bid = { price: Number(data['b']), size: Number(data['B']) };
        ask = { price: Number(data['a']), size: Number(data['A']) };
        estimators.onMid(lastMs, (bid.price + ask.price) / 2);
        if (++tops % every === 0) onView(viewAt(lastMs));
      } else if (message.stream.endsWith('@trade')) {
        // m = buyer is maker: the aggressor sold.
        estimators.onTrade(lastMs, Number(data['p']), data['m'] === true ? 'sell' : 'buy');
      }
    }
  }
  return viewAt(lastMs);
}

describe.skipIf(dataDir === undefined)('estimators on recorded Binance ETHUSDT (11 min, 2024-08-08/09)', () => {
  it('estimate a plausible σ, trade rates and a decaying arrival fit, and the models quote inside sane bounds', () => {
    const view = replay('ethusdt', Number.POSITIVE_INFINITY, () => undefined);
    // ETH near 2680 USDT: σ of a few tenths of a USDT per √s (~0.3% per hour … 30% a year).
    expect(view.volatility).toBeGreaterThan(0.05);
    expect(view.volatility).toBeLessThan(2);
    expect(view.tradeRate.buy + view.tradeRate.sell).toBeGreaterThan(1);
    expect(view.arrival?.kPerBps).toBeGreaterThan(0.1);
    expect(view.arrival?.a).toBeGreaterThan(0.1);

    const models: StrategyDefinition[] = [AVELLANEDA_STOIKOV, GLFT];
    for (const definition of models) {
      const quotes = definition.create(parseOrThrow(definition)).quote(view, makeInventory());
      expect(quotes).toHaveLength(2);
      for (const quote of quotes) {
        const distanceBps = (Math.abs(quote.price - (view.mid as number)) / (view.mid as number)) * 10_000;
        expect(distanceBps).toBeGreaterThanOrEqual(1); // the 1 bp maker fee is inside the spread
        expect(distanceBps).toBeLessThanOrEqual(101.01); // the 200 bps default cap, half each side, plus the fee
      }
    }
  });
});

describe.skipIf(dataDir === undefined)('one pair file on recorded ETHUSDT and BTCUSDT (prices 23 times apart, the same tick)', () => {
  /** The shipped ETH/USDC ladder with its 0.05 ETH as a notional, and the models at 0.01 ETH's. */
  const PAIR_FILE: readonly (readonly [StrategyDefinition, Record<string, string>, number])[] = [
    [LADDER, { LADDER_LEVELS: '2', LADDER_ORDER_NOTIONAL: '134', LADDER_INVENTORY_SKEW: 'on' }, 134],
    [AVELLANEDA_STOIKOV, { AS_ORDER_NOTIONAL: '27' }, 27],
    [GLFT, { GLFT_ORDER_NOTIONAL: '27' }, 27],
  ];

  it('quotes the same notional and comparable distances in bps on both, with k fitted per bp', () => {
    const seen = new Map<string, { notional: number; distanceBps: number; quotes: number }>();
    const kPerBps: number[] = [];
    for (const symbol of ['ethusdt', 'btcusdt'] as const) {
      const last = replay(symbol, 20, (view) => {
        for (const [definition, env] of PAIR_FILE) {
          for (const quote of definition.create(parseOrThrow(definition, env)).quote(view, makeInventory())) {
            if (quote.level !== 0 || view.fair === undefined) continue;
            const key = `${definition.name} ${symbol}`;
            const sum = seen.get(key) ?? { notional: 0, distanceBps: 0, quotes: 0 };
            seen.set(key, { notional: sum.notional + quote.size * quote.price, distanceBps: sum.distanceBps + (Math.abs(quote.price - view.fair) / view.fair) * 10_000, quotes: sum.quotes + 1 });
          }
        }
      });
      kPerBps.push(last.arrival?.kPerBps ?? Number.NaN);
    }
    // The same relative depth profile is not the same market: the fits differ, but not by 24 times.
    expect(kPerBps[1]! / kPerBps[0]!).toBeGreaterThan(0.5);
    expect(kPerBps[1]! / kPerBps[0]!).toBeLessThan(2);
    for (const [definition, , notional] of PAIR_FILE) {
      const mean = (symbol: string) => {
        const sum = seen.get(`${definition.name} ${symbol}`);
        if (sum === undefined || sum.quotes < 100) throw new Error(`${definition.name} quoted too little on ${symbol}`);
        return { notional: sum.notional / sum.quotes, distanceBps: sum.distanceBps / sum.quotes };
      };
      const [eth, btc] = [mean('ethusdt'), mean('btcusdt')];
      // Within a lot of the notional asked (0.0001 ETH ≈ 0.27 USDT, 0.00001 BTC ≈ 0.62 USDT), never above it.
      for (const side of [eth, btc]) {
        expect(side.notional).toBeLessThanOrEqual(notional * 1.0001);
        expect(side.notional).toBeGreaterThan(notional - 0.7);
      }
      // The ladder's bps are the same by construction; the models' follow each market's σ and fit.
      expect(btc.distanceBps / eth.distanceBps).toBeGreaterThan(definition === LADDER ? 0.99 : 0.67);
      expect(btc.distanceBps / eth.distanceBps).toBeLessThan(definition === LADDER ? 1.01 : 1.5);
    }
  });
});
