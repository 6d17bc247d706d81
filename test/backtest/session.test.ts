import { describe, expect, it } from 'vitest';
import type { DesiredQuote, InventoryView, MarketView, Strategy } from '../../src/core/index.ts';
import { constantLatency } from '../../src/backtest/latency.ts';
import { riskAverseQueue } from '../../src/backtest/queue-model.ts';
import { BacktestSession } from '../../src/backtest/session.ts';
import { DEFAULT_ENGINE_SETTINGS } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from '../engine/fixtures.ts';

/** Quotes one bid and one ask `offset` quote units around the mid, 0.1 ETH each. */
function fixedSpread(offset: number): Strategy {
  return {
    name: 'fixed',
    quote(view: MarketView, _inventory: InventoryView): DesiredQuote[] {
      if (view.mid === undefined) return [];
      return [
        { side: 'buy', price: view.mid - offset, size: 0.1, level: 0 },
        { side: 'sell', price: view.mid + offset, size: 0.1, level: 0 },
      ];
    },
  };
}

function session(latencyMs = 5): BacktestSession {
  return new BacktestSession({
    venue: {
      rules: ETH_USDC,
      makerFeePbips: 200,
      takerFeePbips: 1000,
      steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
      gasPriceUnits: 10n ** 13n,
      quotePerStrk: 0.5,
      latency: constantLatency(latencyMs),
      feedLatencyMs: 0,
      queue: riskAverseQueue,
      initialBase: eth(1),
      initialQuote: usdc(5_000),
    },
    strategy: fixedSpread(0.5),
    settings: { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0 },
    startMs: 1_000_000,
  });
}

/** Ticks of 0.01 USDC. */
const px = (price: number): number => Math.round(price * 100);
/** Lots of 0.0001 ETH. */
const lots = (size: number): number => Math.round(size * 1e4);

async function at(s: BacktestSession, timeMs: number, apply: () => void): Promise<void> {
  await s.advanceTo(timeMs);
  apply();
  s.endOfMessage();
  if (s.needsFlush()) await s.flush();
}

describe('BacktestSession', () => {
  it('quotes both sides around the replayed mid after the order latency', async () => {
    const s = session();
    await s.start();
    await at(s, 1_000_010, () => {
      s.depth('buy', px(1999), lots(2));
      s.depth('sell', px(2001), lots(2));
    });
    expect(s.venue.exchange.restingOrders()).toHaveLength(0);
    await at(s, 1_000_020, () => undefined);
    const resting = s.venue.exchange.restingOrders().map((o) => [o.side, o.priceTicks, o.qtyLots]);
    expect(resting).toEqual([
      ['buy', px(1999.5), lots(0.1)],
      ['sell', px(2000.5), lots(0.1)],
    ]);
    await s.finish();
    expect(s.venue.exchange.restingOrders()).toHaveLength(0);
  });

  it('fills a resting bid when a trade prints through it and moves inventory exactly', async () => {
    const s = session();
    await s.start();
    await at(s, 1_000_010, () => {
      s.depth('buy', px(1999), lots(2));
      s.depth('sell', px(2001), lots(2));
    });
    await at(s, 1_000_100, () => s.trade('sell', px(1999), lots(0.5)));
    await at(s, 1_000_200, () => undefined);
    const fee = (eth(0.1) * 200n + 999_999n) / 1_000_000n;
    const account = await s.venue.fetchAccount();
    expect(account.balances.get('ETH')?.total).toBe(eth(1.1) - fee);
    expect(account.balances.get('USDC')?.total).toBe(usdc(5_000) - usdc(199.95));
    // The fill as the exchange made it, with its fee valued at the fill price.
    expect(s.fills).toEqual([{ timeMs: 1_000_100, orderId: expect.any(String), side: 'buy', price: 1999.5, size: 0.1, isMaker: true, feeQuote: (Number(fee) / 1e18) * 1999.5 }]);
    expect(s.venue.orderActivity().ordersSent).toBeGreaterThanOrEqual(1);
    const status = await s.finish();
    expect(status.baseBalance).toBeCloseTo(1.1 - Number(fee) / 1e18, 12);
  });

  it('keeps the risk-averse queue: a trade at our price fills us only after the size ahead', async () => {
    const s = session();
    await s.start();
    await at(s, 1_000_010, () => {
      s.depth('buy', px(1999.5), lots(0.3));
      s.depth('sell', px(2000.5), lots(0.3));
    });
    await at(s, 1_000_020, () => undefined);
    // Our bid joined behind 0.3 ETH at 1999.5 (mid 2000, offset 0.5).
    await at(s, 1_000_100, () => s.trade('sell', px(1999.5), lots(0.25)));
    await at(s, 1_000_200, () => undefined);
    expect(s.fills).toEqual([]);
    await at(s, 1_000_300, () => s.trade('sell', px(1999.5), lots(0.1)));
    await at(s, 1_000_400, () => undefined);
    expect(s.fills.map((f) => f.size)).toEqual([0.05]);
    await s.finish();
  });

  it('repeats exactly: the same events give the same fills and balances', async () => {
    const run = async (): Promise<string> => {
      const s = session(3);
      await s.start();
      let previous = 2000;
      for (let i = 0; i < 50; i++) {
        const mid = 2000 + Math.round(Math.sin(i / 5) * 300) / 100;
        const before = previous;
        await at(s, 1_000_000 + i * 100, () => {
          s.depth('buy', px(before - 0.5), 0);
          s.depth('sell', px(before + 0.5), 0);
          s.depth('buy', px(mid - 0.5), lots(1));
          s.depth('sell', px(mid + 0.5), lots(1));
        });
        previous = mid;
        await at(s, 1_000_050 + i * 100, () => s.trade(i % 2 === 0 ? 'sell' : 'buy', px(mid + (i % 2 === 0 ? -2 : 2)), lots(0.2)));
      }
      const status = await s.finish();
      expect(s.fills.length).toBeGreaterThan(5);
      return JSON.stringify({ fills: s.fills, base: status.baseBalance, quote: status.quoteBalance });
    };
    expect(await run()).toBe(await run());
  });
});
