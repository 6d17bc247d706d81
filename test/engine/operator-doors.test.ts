/**
 * The operator's doors into a running engine (`akira-mm ctl`): a pause of its own that only the
 * operator's resume clears, a cancel-all that requotes after, and new live settings that move the
 * next quotes without pulling the ones that stay inside their band.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredQuote, MarketView, Strategy } from '../../src/core/index.ts';
import { DEFAULT_ENGINE_SETTINGS, OPERATOR_PAUSE } from '../../src/engine/index.ts';
import { quotingSession, setBook } from './session.ts';

/** One bid and one ask of 0.1 ETH, `offset` USDC either side of the fair price. */
function quotesAt(offset: number): Strategy {
  return {
    name: 'fixed',
    quote: (view: MarketView): DesiredQuote[] =>
      view.fair === undefined
        ? []
        : [
            { side: 'buy', price: view.fair - offset, size: 0.1, level: 0 },
            { side: 'sell', price: view.fair + offset, size: 0.1, level: 0 },
          ],
  };
}

async function settle(s: ReturnType<typeof quotingSession>, fromMs: number, toMs: number): Promise<void> {
  for (let t = fromMs; t <= toMs; t += 50) {
    await setBook(s, t, t % 100 === 0 ? 1999 : 1998.99, 2001);
    for (let i = 0; i < 20; i++) await Promise.resolve();
  }
}

const restingPrices = (s: ReturnType<typeof quotingSession>): string[] =>
  s.venue.exchange
    .restingOrders()
    .map((order) => `${order.side} ${order.priceTicks}`)
    .sort();

describe('the operator pause', () => {
  it('pulls every quote with the reason "paused", and only the operator resume requotes', async () => {
    const s = quotingSession({ staleFeedMs: 1_000 });
    await s.start();
    await settle(s, 100, 300);
    expect(s.venue.exchange.restingOrders()).toHaveLength(2);

    expect(s.engine.pauseByOperator()).toBe(true);
    await settle(s, 350, 600);
    expect(s.engine.status()).toMatchObject({ state: 'paused', pauseReason: OPERATOR_PAUSE });
    expect(s.venue.exchange.restingOrders()).toHaveLength(0);

    expect(s.engine.resumeByOperator()).toBe(true);
    await settle(s, 650, 900);
    expect(s.engine.status().state).toBe('quoting');
    expect(s.venue.exchange.restingOrders()).toHaveLength(2);
    expect(s.engine.resumeByOperator()).toBe(false);
  });

  it('outlasts an automatic pause: the feed coming back clears the stale feed, not the operator', async () => {
    const s = quotingSession({ staleFeedMs: 1_000 });
    await s.start();
    await settle(s, 100, 300);
    // The feed falls silent: the dead-man pauses; then the operator pauses too.
    for (let t = 350; t <= 2_000; t += 50) {
      await s.advanceTo(t);
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    expect(s.engine.status().pauseReason).toBe('stale feed');
    expect(s.engine.pauseByOperator()).toBe(true);
    expect(s.engine.status().pauseReason).toBe(`stale feed, ${OPERATOR_PAUSE}`);
    await settle(s, 2_050, 2_500);
    expect(s.engine.status()).toMatchObject({ state: 'paused', pauseReason: OPERATOR_PAUSE });
    expect(s.venue.exchange.restingOrders()).toHaveLength(0);
    expect(s.engine.resumeByOperator()).toBe(true);
    await settle(s, 2_550, 2_800);
    expect(s.engine.status().state).toBe('quoting');
  });

  it('is refused once the engine halted', async () => {
    const s = quotingSession();
    await s.start();
    await settle(s, 100, 200);
    void s.engine.halt('OPERATOR', 'test halt');
    expect(s.engine.pauseByOperator()).toBe(false);
    expect(s.engine.status().state).toBe('halted');
  });
});

describe('the operator cancel-all', () => {
  it('pulls every order, confirms nothing rests, then quotes afresh', async () => {
    const s = quotingSession();
    await s.start();
    await settle(s, 100, 300);
    const before = s.venue.exchange.restingOrders().map((order) => order.orderId);
    expect(before).toHaveLength(2);
    const pulled = s.engine.cancelAllByOperator();
    await settle(s, 350, 600);
    expect(await pulled).toBe(true);
    await settle(s, 650, 900);
    expect(s.engine.status().state).toBe('quoting');
    const after = s.venue.exchange.restingOrders().map((order) => order.orderId);
    expect(after).toHaveLength(2);
    expect(after.some((id) => before.includes(id))).toBe(false);
  });
});

describe('a live reconfiguration', () => {
  it('moves the next quotes to the new strategy without a cancel-all', async () => {
    const s = quotingSession();
    await s.start();
    await settle(s, 100, 300);
    expect(restingPrices(s)).toEqual(['buy 199950', 'sell 200050']);
    const cancelAllsBefore = s.engine.status().scorecard.cancelsSent;
    let cancelAlls = 0;
    const cancelAll = s.venue.cancelAll.bind(s.venue);
    s.venue.cancelAll = () => {
      cancelAlls++;
      return cancelAll();
    };
    s.engine.reconfigure({ strategy: quotesAt(2), settings: { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0 } });
    await settle(s, 350, 700);
    expect(restingPrices(s)).toEqual(['buy 199800', 'sell 200200']);
    expect(cancelAlls).toBe(0);
    expect(s.engine.status().state).toBe('quoting');
    expect(s.engine.status().scorecard.cancelsSent - cancelAllsBefore).toBeGreaterThanOrEqual(2);
  });

  it('applies new risk caps at the next requote (a cap of one open order leaves one)', async () => {
    const s = quotingSession();
    await s.start();
    await settle(s, 100, 300);
    expect(s.venue.exchange.restingOrders()).toHaveLength(2);
    const settings = { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0 };
    s.engine.reconfigure({ strategy: quotesAt(0.5), settings: { ...settings, risk: { ...settings.risk, maxOpenOrders: 1 } } });
    await settle(s, 350, 700);
    expect(s.venue.exchange.restingOrders().length).toBeLessThanOrEqual(1);
  });
});
