import { describe, expect, it } from 'vitest';
import { TICK_GRID, createTickGrid, explainTickGrid, getStrategyDefinition, type TickGridParams } from '../../strategies/index.ts';
import { DEFAULT_ENGINE_SETTINGS, diffQuotes, resolveRiskLimits, runQuotePipeline, type LiveQuote } from '../../src/engine/index.ts';
import type { DesiredQuote, InventoryView, MarketView, TickerRules } from '../../src/core/index.ts';
import { makeInventory, makeView, parseOrThrow } from './fixtures.ts';

/** NEXO/USDT as on Binance: tick 0.001 (≈ 8 bps at 1.25), lot 0.01, a one-tick spread 1.250 / 1.251. */
function nexoView(overrides: Partial<MarketView> = {}): MarketView {
  return makeView({ bestBid: 1.25, bestAsk: 1.251, bestBidSize: 1_000, bestAskSize: 1_000, tickSize: 0.001, lotSize: 0.01, minSize: 0.01, ...overrides });
}

const params = (env: Record<string, string> = {}): TickGridParams => parseOrThrow(TICK_GRID, { GRID_ORDER_NOTIONAL: '30', ...env });

/** Prices of one side in ticks, nearest the fair first. */
function ticksOf(quotes: readonly DesiredQuote[], side: 'buy' | 'sell'): number[] {
  return quotes
    .filter((quote) => quote.side === side)
    .sort((a, b) => a.level - b.level)
    .map((quote) => quote.price / 0.001);
}

function expectWholeTicks(quotes: readonly DesiredQuote[]): void {
  for (const quote of quotes) expect(Math.abs(quote.price / 0.001 - Math.round(quote.price / 0.001))).toBeLessThan(1e-9);
}

const flat = makeInventory({ base: 0, targetBase: 0 });

describe('tick-grid placement', () => {
  it('puts level 0 on the nearest whole tick at least the half-spread from the fair price, the others GRID_SPACING_TICKS apart', () => {
    const grid = createTickGrid(params({ GRID_LEVELS: '3', GRID_SPACING_TICKS: '2', GRID_HALF_SPREAD_TICKS: '0.5' }));
    // fair = mid 1.2505 = 1250.5 ticks: bids from 1250 down, asks from 1251 up.
    const quotes = grid.quote(nexoView(), flat);
    expect(ticksOf(quotes, 'buy').map(Math.round)).toEqual([1250, 1248, 1246]);
    expect(ticksOf(quotes, 'sell').map(Math.round)).toEqual([1251, 1253, 1255]);
    expectWholeTicks(quotes);
    // 30 USDT at 1.2505 is 23.990… NEXO: 23.99, rounded down to the lot once.
    for (const quote of quotes) expect(quote).toMatchObject({ size: 23.99, reference: 1.2505 });
  });

  it('a fractional half-spread joins the touch only when the fair price leans that way', () => {
    const grid = createTickGrid(params({ GRID_LEVELS: '1', GRID_HALF_SPREAD_TICKS: '0.75' }));
    // At the mid (1250.5 ticks) level 0 is 0.75 away: 1249 and 1252, one tick behind each touch.
    const atMid = grid.quote(nexoView(), flat);
    expect(ticksOf(atMid, 'buy').map(Math.round)).toEqual([1249]);
    expect(ticksOf(atMid, 'sell').map(Math.round)).toEqual([1252]);
    // A fair price near the ask (1250.9) pulls the bid onto the touch, the ask stays out.
    const leaningUp = grid.quote(nexoView({ fair: 1.2509 }), flat);
    expect(ticksOf(leaningUp, 'buy').map(Math.round)).toEqual([1250]);
    expect(ticksOf(leaningUp, 'sell').map(Math.round)).toEqual([1252]);
  });

  it('adds the costs of a fill to the half-spread: a 2 bp maker fee is a quarter tick at 1.25', () => {
    const grid = createTickGrid(params({ GRID_LEVELS: '1', GRID_HALF_SPREAD_TICKS: '0.5' }));
    // 1250.5 − 0.25 (fee 0.0002 × 1.2505 ≈ 0.00025) − 0.5 = 1249.75 → 1249.
    const quotes = grid.quote(nexoView({ makerFee: 0.0002 }), flat);
    expect(ticksOf(quotes, 'buy').map(Math.round)).toEqual([1249]);
    expect(ticksOf(quotes, 'sell').map(Math.round)).toEqual([1252]);
  });

  it('snaps once: every fair price between two rounding points gives the very same prices, whole ticks', () => {
    const grid = createTickGrid(params({ GRID_LEVELS: '3', GRID_HALF_SPREAD_TICKS: '0.25' }));
    // Fair from 1250.25 to 1250.75 ticks: bid level 0 floor(fair − 0.25) = 1250, ask ceil(fair + 0.25) = 1251.
    const first = grid.quote(nexoView({ fair: 1.25025 }), flat).map((quote) => [quote.side, quote.price]);
    for (const fair of [1.2503, 1.2504, 1.2505, 1.25061, 1.2507, 1.25075]) {
      const quotes = grid.quote(nexoView({ fair }), flat);
      expectWholeTicks(quotes);
      expect(quotes.map((quote) => [quote.side, quote.price])).toEqual(first);
    }
    // Past the rounding point the grid moves by one tick: the level nearest the fair appears, the outermost goes.
    const moved = grid.quote(nexoView({ fair: 1.25076 }), flat);
    expect(ticksOf(moved, 'sell').map(Math.round)).toEqual([1252, 1253, 1254]);
    expect(ticksOf(moved, 'buy').map(Math.round)).toEqual([1250, 1249, 1248]);
  });
});

describe('tick-grid skew and position', () => {
  it('moves the centre GRID_SKEW_TICKS against the position per order held', () => {
    const grid = createTickGrid(params({ GRID_LEVELS: '1', GRID_HALF_SPREAD_TICKS: '0.5', GRID_SKEW_TICKS: '0.5' }));
    const size = 23.99;
    // Long two orders: the centre is 1 tick lower, 1249.5: bid 1249, ask 1250 — clamped off the best bid (1250), so no ask.
    const long = createTickGrid(params({ GRID_LEVELS: '2', GRID_HALF_SPREAD_TICKS: '0.5', GRID_SKEW_TICKS: '0.5' })).explain(nexoView(), makeInventory({ base: 2 * size }));
    expect(long?.positionOrders).toBeCloseTo(2, 9);
    expect(long?.centre).toBeCloseTo(1.2495, 9);
    expect(ticksOf(long!.quotes, 'buy').map(Math.round)).toEqual([1249, 1248]);
    expect(ticksOf(long!.quotes, 'sell').map(Math.round)).toEqual([1251]);
    // Short one order: half a tick up, 1251: bid 1250, ask 1252.
    const short = grid.quote(nexoView(), makeInventory({ base: -size }));
    expect(ticksOf(short, 'buy').map(Math.round)).toEqual([1250]);
    expect(ticksOf(short, 'sell').map(Math.round)).toEqual([1252]);
    // The target, not zero, is flat.
    expect(grid.quote(nexoView(), makeInventory({ base: 5, targetBase: 5 }))).toEqual(grid.quote(nexoView(), flat));
  });

  it('stops adding on the side that would take the position past GRID_MAX_POSITION_ORDERS', () => {
    const grid = createTickGrid(params({ GRID_LEVELS: '3', GRID_MAX_POSITION_ORDERS: '3' }));
    const size = 23.99;
    const count = (quotes: readonly DesiredQuote[], side: 'buy' | 'sell'): number => quotes.filter((quote) => quote.side === side).length;
    expect([count(grid.quote(nexoView(), flat), 'buy'), count(grid.quote(nexoView(), flat), 'sell')]).toEqual([3, 3]);
    const longOne = grid.quote(nexoView(), makeInventory({ base: size }));
    expect([count(longOne, 'buy'), count(longOne, 'sell')]).toEqual([2, 3]);
    // The bids left are the ones nearest the fair price.
    expect(ticksOf(longOne, 'buy').map(Math.round)).toEqual([1250, 1249]);
    const longThree = grid.quote(nexoView(), makeInventory({ base: 3 * size }));
    expect([count(longThree, 'buy'), count(longThree, 'sell')]).toEqual([0, 3]);
    const shortFour = grid.quote(nexoView(), makeInventory({ base: -4 * size }));
    expect([count(shortFour, 'buy'), count(shortFour, 'sell')]).toEqual([3, 0]);
  });
});

describe('tick-grid never crosses', () => {
  it('leaves out the levels at or through the other side\'s touch and keeps the rest on their ticks', () => {
    const grid = createTickGrid(params({ GRID_LEVELS: '3', GRID_HALF_SPREAD_TICKS: '0.5' }));
    // A fair price above the ask (a reference leading the book): 1252.5 → bids 1252, 1251, 1250; the first two cross 1251.
    const quotes = grid.quote(nexoView({ fair: 1.2525 }), flat);
    expect(ticksOf(quotes, 'buy').map(Math.round)).toEqual([1250]);
    expect(quotes.find((quote) => quote.side === 'buy')?.level).toBe(2);
    expect(ticksOf(quotes, 'sell').map(Math.round)).toEqual([1253, 1254, 1255]);
  });

  it('keeps our own bids under our asks even when a rebate exceeds the half-spread', () => {
    const grid = createTickGrid(params({ GRID_LEVELS: '2', GRID_HALF_SPREAD_TICKS: '0' }));
    for (const fair of [1.25, 1.2504, 1.2505, 1.2506]) {
      const quotes = grid.quote(nexoView({ fair, bestBid: 1.248, bestAsk: 1.253, makerFee: -0.0004 }), flat);
      const highestBid = Math.max(...ticksOf(quotes, 'buy'));
      const lowestAsk = Math.min(...ticksOf(quotes, 'sell'));
      expect(highestBid).toBeLessThan(lowestAsk);
      expect(lowestAsk - highestBid).toBeGreaterThanOrEqual(1 - 1e-9);
    }
  });
});

describe('tick-grid queue rule', () => {
  it('joins the touch only behind GRID_MIN_TOUCH_NOTIONAL of resting orders, never improves on it, and keeps deeper levels', () => {
    const grid = createTickGrid(params({ GRID_LEVELS: '2', GRID_HALF_SPREAD_TICKS: '0.25', GRID_MIN_TOUCH_NOTIONAL: '100' }));
    // 1,000 NEXO (1,250 USDT) at each touch: both level 0s join.
    expect(ticksOf(grid.quote(nexoView(), flat), 'buy').map(Math.round)).toEqual([1250, 1249]);
    // 40 NEXO (50 USDT) at the bid: that level is left out, the one under it stays.
    const thin = grid.quote(nexoView({ bestBidSize: 40 }), flat);
    expect(ticksOf(thin, 'buy').map(Math.round)).toEqual([1249]);
    expect(ticksOf(thin, 'sell').map(Math.round)).toEqual([1251, 1252]);
    // A two-tick spread, fair 1250.4: bid level 0 (1250) would be inside it with no queue ahead, so it
    // is not placed; level 1 joins the best bid (1249). The asks start on the best ask (1251).
    const wide = grid.quote(nexoView({ bestBid: 1.249, bestAsk: 1.251, fair: 1.2504 }), flat);
    expect(ticksOf(wide, 'buy').map(Math.round)).toEqual([1249]);
    expect(ticksOf(wide, 'sell').map(Math.round)).toEqual([1251, 1252]);
    // The rule off: the level inside the spread is placed.
    const free = createTickGrid(params({ GRID_LEVELS: '2', GRID_HALF_SPREAD_TICKS: '0.25' })).quote(nexoView({ bestBid: 1.249, bestAsk: 1.251, fair: 1.2504 }), flat);
    expect(ticksOf(free, 'buy').map(Math.round)).toEqual([1250, 1249]);
  });
});

/** NEXO/USDT rules: 8 decimals each side, tick 0.001, lot 0.01. */
const NEXO_USDT: TickerRules = { base: 'NEXO', quote: 'USDT', isEcosystemBook: true, priceTick: 100_000n, qtyStep: 1_000_000n, minQty: 1_000_000n, baseDecimals: 8, quoteDecimals: 8 };
const units = (value: number): bigint => BigInt(Math.round(value * 1e8));

describe('tick-grid keeps its orders through the engine', () => {
  it('a fair price that moves less than the grid\'s rounding leaves every resting order in place (no cancel, no place)', () => {
    const grid = createTickGrid(params({ GRID_LEVELS: '3', GRID_HALF_SPREAD_TICKS: '0.25' }));
    const limits = resolveRiskLimits({ ...DEFAULT_ENGINE_SETTINGS.risk, maxDrawdownQuote: 0 }, { orderSizeUnits: units(24), fairUnits: units(1.25), rules: NEXO_USDT });
    const holdings = { baseUnits: units(1_000), targetUnits: units(1_000), quoteUnits: units(1_250) };
    const inventory: InventoryView = makeInventory({ base: 1_000, targetBase: 1_000 });
    const run = (fair: number) =>
      runQuotePipeline({
        quotes: grid.quote(nexoView({ fair }), inventory),
        fair,
        fairUnits: units(fair),
        touch: { bestBidUnits: units(1.25), bestAskUnits: units(1.251) },
        rules: NEXO_USDT,
        tickSize: 0.001,
        holdings,
        limits,
        minEdgeBps: 0,
        edge: { rules: NEXO_USDT, makerFeePbips: 0, steps: { trade: 0, cancel: 0, nonce: 0, withdraw: 0 }, gas: undefined, conversionMargin: 0 },
        tolerance: DEFAULT_ENGINE_SETTINGS.requoteTolerance,
      });
    const placed = run(1.2503);
    expect(placed).toHaveLength(6);
    const live: LiveQuote[] = placed.map((quote, i) => ({ orderId: `o${i}`, side: quote.side, priceUnits: quote.priceUnits, remainingUnits: quote.qtyUnits, filledUnits: 0n, createdAtMs: 0 }));
    const options = { toleranceSizeFraction: DEFAULT_ENGINE_SETTINGS.requoteTolerance.sizeFraction, maxOrderAgeMs: 0, nowMs: 1_000 };
    for (const fair of [1.25026, 1.2505, 1.2507, 1.25074]) {
      const diff = diffQuotes(run(fair), live, options);
      expect(diff.cancel).toEqual([]);
      expect(diff.place).toEqual([]);
      expect(diff.keep).toHaveLength(6);
    }
    // Past the rounding point (fair 1250.8 ticks: ask level 0 is now 1252): the ask at 1251 goes, one
    // is added at 1254 behind the others, and the two asks still on the grid keep their places.
    const diff = diffQuotes(run(1.2508), live, options);
    expect(diff.place.map((quote) => [quote.side, quote.priceUnits])).toEqual([['sell', units(1.254)]]);
    expect(diff.cancel.map((order) => [order.side, order.priceUnits])).toEqual([['sell', units(1.251)]]);
    expect(diff.keep).toHaveLength(5);
  });
});

describe('tick-grid memo and keys', () => {
  it('quotes the same as explainTickGrid for any sequence of views, reusing its answer while its inputs stay put', () => {
    const p = params({ GRID_LEVELS: '2', GRID_SKEW_TICKS: '0.3', GRID_MIN_TOUCH_NOTIONAL: '100' });
    const grid = createTickGrid(p);
    const views = [nexoView(), nexoView({ bestBidSize: 10 }), nexoView({ fair: 1.2507 }), nexoView({ bestAsk: 1.252, fair: 1.251 })];
    const inventories = [flat, makeInventory({ base: 30 }), makeInventory({ base: -50 })];
    for (const view of views) {
      for (const inventory of [...inventories, ...inventories]) expect(grid.quote(view, inventory)).toEqual(explainTickGrid(p, view, inventory)?.quotes ?? []);
      expect(grid.quote(view, flat)).toBe(grid.quote(view, flat));
    }
    expect(grid.quote(nexoView({ fair: undefined }), flat)).toEqual([]);
  });

  it('is registered as tick-grid and refuses bad keys, naming each', () => {
    expect(getStrategyDefinition('tick-grid')).toBe(TICK_GRID);
    const result = TICK_GRID.parseParams({
      GRID_LEVELS: '0',
      GRID_SPACING_TICKS: '1.5',
      GRID_HALF_SPREAD_TICKS: '-1',
      GRID_SKEW_TICKS: 'x',
      GRID_MAX_POSITION_ORDERS: '0',
      GRID_MIN_TOUCH_NOTIONAL: '-5',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.key).sort()).toEqual(
      ['GRID_HALF_SPREAD_TICKS', 'GRID_LEVELS', 'GRID_MAX_POSITION_ORDERS', 'GRID_MIN_TOUCH_NOTIONAL', 'GRID_SKEW_TICKS', 'GRID_SPACING_TICKS'].sort(),
    );
    const both = TICK_GRID.parseParams({ GRID_ORDER_SIZE: '10', GRID_ORDER_NOTIONAL: '30' });
    expect(both.ok).toBe(false);
    if (!both.ok) expect(both.issues.map((issue) => issue.key).join(' ')).toContain('GRID_ORDER');
    const ok = TICK_GRID.parseParams({ GRID_HALF_SPREAD_TICKS: '0.75', GRID_MAX_POSITION_ORDERS: 'off' });
    expect(ok.ok).toBe(true);
  });
});
