/**
 * The engine hedging every fill on a replayed deep market, each behaviour a complaint users of
 * other bots filed (hummingbot issue numbers in the names): fills during a cancel are hedged, the
 * hedge is of the filled size, no new quote on the side a pending hedge covers, no more hedge
 * volume than fill volume, retries with backoff and then a halt, a balance short, dust kept.
 */
import { describe, expect, it } from 'vitest';
import { makerFeeOn, hedgedSession, staticHedgeBook, venueEth, px, lots, START_MS } from './support.ts';
import { eth } from '../fixtures.ts';

describe('hedging through the engine (backtest ports)', () => {
  it('hedges a fill that arrives while its order is being cancelled (hummingbot #2501, #7139, #8094)', async () => {
    const { session, at } = await hedgedSession({ latencyMs: 50 });
    await at(START_MS + 200);
    expect(session.venue.exchange.restingOrders().map((order) => order.priceTicks)).toEqual([px(1999.5), px(2000.5)]);
    // The book steps down: our bid at 1999.5 is now more aggressive than the strategy wants, and
    // the engine cancels it (the cancel takes 50 ms to arrive)…
    const cancelsBefore = session.venue.orderActivity().cancelsSent;
    await at(START_MS + 300, () => {
      session.depth('buy', px(1999), 0);
      session.depth('sell', px(2001), 0);
      session.depth('buy', px(1997), lots(2));
      session.depth('sell', px(2000), lots(2));
    });
    expect(session.venue.orderActivity().cancelsSent).toBeGreaterThan(cancelsBefore);
    // …and 10 ms later, before it lands, a seller hits the old bid.
    await at(START_MS + 310, () => session.trade('sell', px(1999.5), lots(0.1)));
    await at(START_MS + 600);
    expect(session.fills.map((fill) => [fill.side, fill.size])).toEqual([['buy', 0.1]]);
    const received = session.hedgeVenue?.received ?? [];
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ side: 'sell', type: 'market' });
    const bought = eth(0.1) - makerFeeOn(eth(0.1));
    const hedge = session.hedger?.exposureBooks();
    expect(venueEth(received[0]?.qtyUnits ?? 0n)).toBe(bought);
    expect(hedge?.uncoveredUnits()).toBe(0n);
    await session.finish();
  });

  it('hedges the filled size, not the order size (hummingbot V2 executor)', async () => {
    const { session, at } = await hedgedSession();
    await at(START_MS + 100, () => session.trade('sell', px(1999.5), lots(0.03)));
    await at(START_MS + 300);
    const received = session.hedgeVenue?.received ?? [];
    expect(received.map((request) => venueEth(request.qtyUnits))).toEqual([eth(0.03) - makerFeeOn(eth(0.03))]);
    expect(session.hedger?.exposureBooks()?.uncoveredUnits()).toBe(0n);
    await session.finish();
  });

  it('places no new quote on the side a pending hedge covers, and quotes it again once the hedge is done (hummingbot #4779)', async () => {
    const { session, placed, at } = await hedgedSession({ hedgeLatencyMs: 200 });
    await at(START_MS + 100, () => session.trade('sell', px(1999.5), lots(0.1)));
    // The fill reached the engine 5 ms later: it hedges (200 ms each way) and holds its bid side.
    for (let t = START_MS + 110; t <= START_MS + 500; t += 10) await at(t);
    const hedgeDoneMs = START_MS + 105 + 400;
    expect(placed.filter((p) => p.side === 'buy' && p.timeMs > START_MS + 100 && p.timeMs < hedgeDoneMs)).toEqual([]);
    await at(START_MS + 700);
    expect(placed.filter((p) => p.side === 'buy' && p.timeMs >= hedgeDoneMs).length).toBe(1);
    expect(session.hedger?.exposureBooks()?.uncoveredUnits()).toBe(0n);
    await session.finish();
  });

  it('never hedges more volume than was filled, over a day of fills both ways (hummingbot #627)', async () => {
    const { session, at } = await hedgedSession({ hedgeLatencyMs: 30 });
    for (let i = 0; i < 40; i++) {
      const t = START_MS + 1_000 + i * 250;
      const size = 0.01 + (i % 7) * 0.013;
      await at(t, () => session.trade(i % 3 === 0 ? 'buy' : 'sell', i % 3 === 0 ? px(2000.5) : px(1999.5), lots(size)));
      await at(t + 40);
      const books = session.hedger?.exposureBooks();
      const volumes = books?.volumes;
      expect(volumes?.hedged ?? 0n).toBeLessThanOrEqual(volumes?.filled ?? 0n);
    }
    await at(START_MS + 20_000);
    const books = session.hedger?.exposureBooks();
    const status = session.engine.status().hedge;
    expect(status?.dustBase).toBeDefined();
    // Flat but for dust below the hedge venue's 5 USDT minimum.
    expect(Math.abs(status?.uncoveredBase ?? 1)).toBeLessThan(5 / 2000);
    expect(books?.volumes.hedged).toBeLessThanOrEqual(books?.volumes.filled ?? 0n);
    await session.finish();
  });

  it('keeps a fill below the hedge venue\'s minimum as dust, shown, and hedges it once more joins it (hummingbot #5688, #6055)', async () => {
    const { session, at } = await hedgedSession();
    await at(START_MS + 100, () => session.trade('sell', px(1999.5), lots(0.002)));
    await at(START_MS + 300);
    expect(session.hedgeVenue?.received).toEqual([]);
    const held = session.engine.status().hedge;
    expect(held?.dustBase).toBeCloseTo(0.002 - 0.002 * 0.0002, 12);
    expect(held?.uncoveredBase).toBeCloseTo(0.002 - 0.002 * 0.0002, 12);
    await at(START_MS + 400, () => session.trade('sell', px(1999.5), lots(0.002)));
    await at(START_MS + 600);
    const received = session.hedgeVenue?.received ?? [];
    expect(received).toHaveLength(1);
    // Both fills' worth at once: what each bought net of the maker fee, to the hedge venue's precision.
    const filled = 2n * (eth(0.002) - makerFeeOn(eth(0.002)));
    expect(venueEth(received[0]?.qtyUnits ?? 0n)).toBe(filled - (filled % 10n ** 10n));
    expect(session.engine.status().hedge?.dustBase).toBe(0);
    await session.finish();
  });

  it('retries a refused hedge with backoff while the side adding to the position quotes nothing, then hedges (hummingbot #3849)', async () => {
    const { session, at } = await hedgedSession();
    session.hedgeVenue?.faults.rejectNext(2, 'other');
    await at(START_MS + 100, () => session.trade('sell', px(1999.5), lots(0.1)));
    await at(START_MS + 150);
    // Refused once: the bid side is off (its resting bid, re-placed after the fill, is cancelled).
    expect(session.engine.status().hedge?.state).toBe('failing');
    expect(session.venue.exchange.restingOrders().filter((order) => order.side === 'buy')).toEqual([]);
    expect(session.venue.exchange.restingOrders().filter((order) => order.side === 'sell')).toHaveLength(1);
    for (let t = START_MS + 200; t <= START_MS + 2_000; t += 50) await at(t);
    expect(session.engine.status().hedge).toMatchObject({ state: 'ok', hedgesSent: 3, hedgesFailed: 2, uncoveredBase: 0 });
    expect(session.engine.status().state).toBe('quoting');
    expect(session.venue.exchange.restingOrders().filter((order) => order.side === 'buy')).toHaveLength(1);
    await session.finish();
  });

  it('stops retrying after HEDGE_MAX_RETRIES and halts with the reason, never retrying without end (hummingbot #3833)', async () => {
    const { session, at } = await hedgedSession({ settings: { maxRetries: 3 } });
    session.hedgeVenue?.faults.rejectNext(100, 'market-closed');
    await at(START_MS + 100, () => session.trade('sell', px(1999.5), lots(0.1)));
    for (let t = START_MS + 200; t <= START_MS + 30_000; t += 100) await at(t);
    const status = session.engine.status();
    expect(status.state).toBe('halted');
    expect(status.haltReason?.code).toBe('HEDGE_FAILED');
    expect(status.haltReason?.message).toMatch(/hedging failed 4 times in a row \(last: market-closed: .*\); 0\.0999\d* ETH uncovered/);
    expect(status.hedge?.hedgesSent).toBe(4);
    expect(session.venue.exchange.restingOrders()).toEqual([]);
    await session.finish();
  });

  it('hedges three fills with balance for two as far as it can, then stops the side adding to the position (hummingbot #855)', async () => {
    const { session, at } = await hedgedSession({ hedgeBase: 0.2, settings: { maxRetries: 2 } });
    for (const t of [START_MS + 100, START_MS + 400, START_MS + 700]) {
      await at(t, () => session.trade('sell', px(1999.5), lots(0.1)));
      for (let step = t + 20; step < t + 300; step += 20) await at(step);
    }
    expect(session.fills.filter((fill) => fill.side === 'buy')).toHaveLength(3);
    // Two fills' worth hedged (each 0.1 ETH net of the maker fee); nothing sent the account could not pay.
    const hedged = session.hedgeVenue?.received.reduce((sum, request) => sum + request.qtyUnits, 0n) ?? 0n;
    expect(venueEth(hedged)).toBe(2n * (eth(0.1) - makerFeeOn(eth(0.1))));
    const status = session.engine.status();
    expect(status.hedge?.state === 'failing' || status.state === 'halted').toBe(true);
    expect(status.hedge?.reason ?? status.haltReason?.message).toMatch(/balance-short|balance short|not enough/);
    expect(session.venue.exchange.restingOrders().filter((order) => order.side === 'buy')).toEqual([]);
    await session.finish();
  });
});

describe('hedging on a venue with a coarse lot', () => {
  it('rounds a hedge down to the lot, never up, and keeps the remainder as dust (no more hedge than fill)', async () => {
    const { session, at } = await hedgedSession({ book: staticHedgeBook(5, 10_000n) });
    await at(START_MS + 100, () => session.trade('sell', px(1999.5), lots(0.03)));
    await at(START_MS + 300);
    const bought = eth(0.03) - makerFeeOn(eth(0.03));
    expect(session.hedgeVenue?.received.map((request) => request.qtyUnits)).toEqual([2_990_000n]);
    expect(session.hedger?.exposureBooks()?.uncoveredUnits()).toBe(bought - venueEth(2_990_000n));
    expect(session.engine.status().hedge?.dustBase).toBeCloseTo(0.029994 - 0.0299, 12);
    await session.finish();
  });
});
