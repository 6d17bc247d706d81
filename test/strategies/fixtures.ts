/** Views, inventories and parsed params for strategy tests. */
import type { HedgeMarketView, InventoryView, MarketView, StrategyDefinition } from '../../src/core/index.ts';

/** An ETH/USDC-like view: 2000.00 / 2000.02, tick 0.01, σ 0, no fit; override any field. */
export function makeView(overrides: Partial<MarketView> = {}): MarketView {
  const bestBid = overrides.bestBid === undefined && 'bestBid' in overrides ? undefined : (overrides.bestBid ?? 2000);
  const bestAsk = overrides.bestAsk === undefined && 'bestAsk' in overrides ? undefined : (overrides.bestAsk ?? 2000.02);
  const mid = bestBid !== undefined && bestAsk !== undefined && bestBid < bestAsk ? (bestBid + bestAsk) / 2 : undefined;
  return {
    timeMs: 1_700_000_000_000,
    bestBid,
    bestAsk,
    bestBidSize: 1,
    bestAskSize: 1,
    mid,
    microprice: mid,
    fair: mid,
    volatility: 0,
    tradeRate: { buy: 0, sell: 0 },
    arrival: undefined,
    tickSize: 0.01,
    lotSize: 0.001,
    minSize: 0.001,
    makerFee: 0,
    takerFee: 0.0005,
    gasPerFill: 0,
    ...overrides,
  };
}

/** Flat inventory at the target (0 base) unless overridden. */
export function makeInventory(overrides: Partial<InventoryView> = {}): InventoryView {
  return { base: 0, quote: 10_000, targetBase: 0, lastFill: undefined, ...overrides };
}

/** Parses env for a definition and fails the test loudly when it does not parse. */
export function parseOrThrow<P>(definition: StrategyDefinition<P>, env: Record<string, string> = {}): P {
  const result = definition.parseParams(env);
  if (!result.ok) throw new Error(`params did not parse: ${JSON.stringify(result.issues)}`);
  return result.params;
}

/**
 * A deep hedge book around `mid`: `levels` levels a cent apart each side with `qty` each, a 10 bps
 * taker fee, 5 bps profit, and an account that can absorb `balance` base each way.
 */
export function makeHedgeView(mid: number, overrides: Partial<HedgeMarketView> & { levels?: number; qty?: number; balance?: number } = {}): HedgeMarketView {
  const { levels = 20, qty = 2, balance = 100, ...rest } = overrides;
  return {
    bids: Array.from({ length: levels }, (_, i) => ({ price: mid - 0.005 - 0.01 * i, qty })),
    asks: Array.from({ length: levels }, (_, i) => ({ price: mid + 0.005 + 0.01 * i, qty })),
    takerFee: 0.001,
    minProfit: 0.0005,
    sellableBase: balance,
    spendableQuote: balance * mid * 1.01,
    minQty: 0.0001,
    uncoveredBase: 0,
    ...rest,
  };
}
