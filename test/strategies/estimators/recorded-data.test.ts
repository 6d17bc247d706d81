import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { StrategyDefinition } from '../../../src/core/index.ts';
import { AVELLANEDA_STOIKOV, GLFT, MarketEstimators, buildMarketView } from '../../../strategies/index.ts';
import { makeInventory, parseOrThrow } from '../fixtures.ts';

// Recorded data lives in ../shared/data next to the repository (also one level up, for worktrees).
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const dataDir = [join(repoRoot, '../shared/data'), join(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

describe.skipIf(dataDir === undefined)('estimators on recorded Binance ETHUSDT (11 min, 2024-08-08/09)', () => {
  it('estimate a plausible σ, trade rates and a decaying arrival fit, and the models quote inside sane bounds', () => {
    const estimators = new MarketEstimators({ arrival: { bucketWidth: 0.005 } });
    let bid = { price: 0, size: 0 };
    let ask = { price: 0, size: 0 };
    let lastMs = 0;
    for (const file of ['ethusdt_20240808.gz', 'ethusdt_20240809.gz']) {
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
        } else if (message.stream.endsWith('@trade')) {
          // m = buyer is maker: the aggressor sold.
          estimators.onTrade(lastMs, Number(data['p']), data['m'] === true ? 'sell' : 'buy');
        }
      }
    }
    const values = estimators.values(lastMs);
    // ETH near 2680 USDT: σ of a few tenths of a USDT per √s (~0.3% per hour … 30% a year).
    expect(values.volatility).toBeGreaterThan(0.05);
    expect(values.volatility).toBeLessThan(2);
    expect(values.tradeRate.buy + values.tradeRate.sell).toBeGreaterThan(1);
    expect(values.arrival?.k).toBeGreaterThan(0.5);
    expect(values.arrival?.a).toBeGreaterThan(0.1);

    const view = buildMarketView({ timeMs: lastMs, bid, ask, ...values, ticker: { tickSize: 0.01, lotSize: 0.0001, minSize: 0.0001, makerFee: 0.0001, takerFee: 0.001 } });
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
