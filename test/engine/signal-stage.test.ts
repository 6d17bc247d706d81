import { describe, expect, it } from 'vitest';
import { createEngineMetrics } from '../../src/engine/index.ts';
import { DEFAULT_SIGNAL_SETTINGS } from '../../src/engine/settings.ts';
import { SignalStage } from '../../src/engine/signal-stage.ts';
import type { BacktestSession } from '../../src/backtest/session.ts';
import type { ReferenceTop, SignalSettings } from '../../src/core/index.ts';
import { quotingSession, setBook } from './session.ts';

/** A book 1999 / 2001 with three times more bid size than ask size at the touch: a top-of-book imbalance of 0.5. */
async function leaningBook(s: BacktestSession, t: number): Promise<void> {
  await s.advanceTo(t);
  s.clear();
  s.depth('buy', 199_900, 30_000);
  s.depth('sell', 200_100, 10_000);
  s.endOfMessage();
  if (s.needsFlush()) await s.flush();
}

describe('the signals stage and the alpha term in the engine', () => {
  it('leaves the fair price exactly the mid with the shipped keys, and still shows the signals', async () => {
    const s = quotingSession();
    await s.start();
    await leaningBook(s, 100);
    const status = s.engine.status();
    expect(status.fair).toBe(2000);
    expect(status.signals).toMatchObject({ source: 'venue', alphaBps: 0 });
    expect(status.signals?.obi).toBeCloseTo(0.5, 12);
  });

  it('shifts the fair price by Σ weight·signal bps, and the strategy quotes around the shifted price', async () => {
    const s = quotingSession({ signals: { ...DEFAULT_SIGNAL_SETTINGS, obiLevels: 1, alphaObiBps: 2, alphaMaxBps: 5 } });
    await s.start();
    await leaningBook(s, 100);
    const status = s.engine.status();
    expect(status.signals?.alphaBps).toBeCloseTo(1, 12);
    expect(status.fair).toBeCloseTo(2000 * 1.0001, 9);
    // The fixed strategy rests 0.5 USDC either side of the fair price: the whole pair moved up 0.2.
    expect(status.bids[0]?.price).toBeCloseTo(1999.7, 2);
    expect(status.asks[0]?.price).toBeCloseTo(2000.7, 2);
  });

  it('clamps the shift to ALPHA_MAX_BPS however large the weight', async () => {
    const s = quotingSession({ signals: { ...DEFAULT_SIGNAL_SETTINGS, obiLevels: 1, alphaObiBps: 100, alphaMaxBps: 2 } });
    await s.start();
    await leaningBook(s, 100);
    expect(s.engine.status().signals?.alphaBps).toBe(2);
    expect(s.engine.status().fair).toBeCloseTo(2000 * 1.0002, 9);
  });

  it('moves the fair price on a trade when the trade flow carries a weight', async () => {
    const s = quotingSession({ signals: { ...DEFAULT_SIGNAL_SETTINGS, alphaTradeFlowBps: 0.1, alphaMaxBps: 5 } });
    await s.start();
    await leaningBook(s, 100);
    expect(s.engine.status().fair).toBe(2000);
    s.trade('sell', 199_900, 5_000);
    s.endOfMessage();
    if (s.needsFlush()) await s.flush();
    // One-sided selling just now reads −10 (the short rate over a ten times longer one): −1 bp.
    expect(s.engine.status().signals?.tradeFlow).toBeCloseTo(-10, 6);
    expect(s.engine.status().fair).toBeCloseTo(2000 * (1 - 0.0001), 9);
  });
});

describe('the signals as metrics', () => {
  it('exports one akira_mm_signal series per signal and the alpha in bps, read from the status at scrape time', async () => {
    const s = quotingSession({ signals: { ...DEFAULT_SIGNAL_SETTINGS, obiLevels: 1, alphaObiBps: 2, alphaMaxBps: 5 } });
    await s.start();
    await leaningBook(s, 100);
    const metrics = createEngineMetrics({ baseDecimals: 18, quoteDecimals: 6, pair: 'ETH/USDC', hasReference: false });
    metrics.bindStatus(() => s.engine.status());
    const json = await metrics.registry.getMetricsAsJSON();
    const signal = json.find((entry) => entry.name === 'akira_mm_signal');
    const byName = new Map(signal?.values.map((value) => [value.labels['name'], value.value]));
    expect([...byName.keys()]).toEqual([
      'obi',
      'ofi',
      'trade_flow',
      'vol_short_bps',
      'vol_long_bps',
      'vol_ratio',
      'reference_move_bps',
      'toxicity_buy_bps',
      'toxicity_sell_bps',
      'predicted_move_bps',
      'vol_regime_widen',
      'queue_join',
      'reference_stale',
      'reference_held',
      'toxicity_size_buy',
      'toxicity_size_sell',
      'vol_regime_size',
    ]);
    expect(byName.get('obi')).toBeCloseTo(0.5, 12);
    expect(byName.get('predicted_move_bps')).toBeCloseTo(1, 12);
    expect(byName.get('queue_join')).toBe(0);
    expect(json.find((entry) => entry.name === 'akira_mm_alpha_bps')?.values[0]?.value).toBeCloseTo(1, 12);
  });
});

describe('toxicity of our own fills in the engine', () => {
  it('reads a bid filled before the fair price fell as a toxic buy side, and moves the bids away when told to', async () => {
    const s = quotingSession({ signals: { ...DEFAULT_SIGNAL_SETTINGS, toxicityWidenRatio: 1, toxicityMaxWidenBps: 5 } });
    await s.start();
    await setBook(s, 100, 1999, 2001);
    const bidBefore = s.engine.status().bids[0]?.price as number;
    // Once our quotes rest (5 ms latency), a seller goes through our 1999.5 bid.
    await s.advanceTo(200);
    s.trade('sell', 199_800, 1_000);
    s.endOfMessage();
    if (s.needsFlush()) await s.flush();
    expect(s.fills.length).toBeGreaterThan(0);
    // A second later the fair price is 1999: the buy at 1999.5 was picked off by 2.5 bps.
    await setBook(s, 1_200, 1998, 2000);
    const status = s.engine.status();
    expect(status.signals?.toxicityBuyBps).toBeCloseTo(((1999.5 - 1999) / 1999.5) * 10_000, 1);
    expect(status.signals?.toxicitySellBps).toBe(0);
    // The bid now rests 2.5 bps (ratio 1, under the 5 bps cap: ≈ 0.5 USDC) below where the plain strategy puts it (fair − 0.5); the ask stays.
    const fair = status.fair as number;
    expect(bidBefore).toBeCloseTo(1999.5, 2);
    expect(status.bids[0]?.price).toBeCloseTo(fair - 0.5 - fair * 0.00025, 2);
    expect(status.asks[0]?.price).toBeCloseTo(fair + 0.5, 2);
  });
});

describe('which book the signals read', () => {
  const referenceTop = { bidPrice: 2000, bidQty: 1, askPrice: 2000.01, askQty: 1, updateId: 1, source: 'ticker' as const, receivedMs: 0, exchangeMs: undefined };
  const depth = {
    bids: [{ price: 2000, qty: 1 }, { price: 1999.99, qty: 9 }],
    asks: [{ price: 2000.01, qty: 1 }, { price: 2000.02, qty: 1 }],
    updateId: 1,
    receivedMs: 0,
  };

  it('reads the reference book, its depth level by level, and ignores the venue while a reference is read', () => {
    const stage = new SignalStage({ ...DEFAULT_SIGNAL_SETTINGS, obiLevels: 2, obiDecay: 1 }, { depth: (levels) => ({ ...depth, bids: depth.bids.slice(0, levels), asks: depth.asks.slice(0, levels) }) }, 18);
    stage.onReferenceTop(0, referenceTop);
    // A venue top leaning the other way changes nothing.
    stage.onVenueTop(0, { price: 2000, size: 0.1 }, { price: 2000.02, size: 50 });
    const status = stage.status(0);
    expect(status.source).toBe('reference');
    // (1 + 9 − 1 − 1) / (1 + 9 + 1 + 1)
    expect(status.obi).toBeCloseTo(8 / 12, 12);
    stage.onReferenceTrade(0, { price: 2000.01, qty: 2, aggressor: 'buy', tradeId: 1, exchangeMs: 0, receivedMs: 0 });
    expect(stage.status(0).tradeFlow).toBeCloseTo(10, 9);
    // Quotes set at the reference mid 2000.005; the reference then rises a cent.
    stage.onQuotesSet('buy');
    stage.onReferenceTop(10, { ...referenceTop, bidPrice: 2000.01, askPrice: 2000.02 });
    expect(stage.status(10).referenceMoveBps).toBeCloseTo(10_000 * (2000.015 / 2000.005 - 1), 9);
  });

  it('reads the reference top alone while its depth is not synchronised', () => {
    const stage = new SignalStage(DEFAULT_SIGNAL_SETTINGS, { depth: () => undefined }, 18);
    stage.onReferenceTop(0, { ...referenceTop, bidQty: 3 });
    expect(stage.status(0).obi).toBeCloseTo(0.5, 12);
  });

  it('reads the venue top without a reference, and its trades in base units', () => {
    const stage = new SignalStage(DEFAULT_SIGNAL_SETTINGS, undefined, 18);
    stage.onVenueTop(0, { price: 2000, size: 3 }, { price: 2000.02, size: 1 });
    expect(stage.status(0)).toMatchObject({ source: 'venue', obi: expect.closeTo(0.5, 12) as number });
    expect(stage.onVenueTrade({ priceUnits: 2000n, qtyUnits: 10n ** 18n, aggressor: 'sell', timeMs: 0 })).toBe(false);
    expect(stage.status(0).tradeFlow).toBeCloseTo(-10, 9);
  });
});

describe('a signal stage nothing reads (a backtest)', () => {
  const tops = [
    [0, 2000, 3, 2000.02, 1],
    [40, 2000.01, 1, 2000.03, 2],
    [90, 2000, 5, 2000.02, 0.5],
    [150, 1999.99, 2, 2000.01, 2],
  ] as const;
  const feed = (stage: SignalStage): void => {
    for (const [t, bid, bidSize, ask, askSize] of tops) {
      stage.onVenueTop(t, { price: bid, size: bidSize }, { price: ask, size: askSize });
      stage.onVenueTrade({ priceUnits: 2000n, qtyUnits: 10n ** 17n, aggressor: t % 20 === 0 ? 'buy' : 'sell', timeMs: t });
    }
  };

  it('feeds the alpha term exactly as a read stage does, when a weight is set', () => {
    const settings = { ...DEFAULT_SIGNAL_SETTINGS, alphaObiBps: 1, alphaOfiBps: 0.5, alphaTradeFlowBps: 0.2, alphaMaxBps: 50 };
    const read = new SignalStage(settings, undefined, 18);
    const unread = new SignalStage(settings, undefined, 18, false);
    feed(read);
    feed(unread);
    expect(unread.readsVenue).toBe(true);
    expect(unread.alphaBps(200)).not.toBe(0);
    expect(unread.alphaBps(200)).toBe(read.alphaBps(200));
  });

  it('takes no venue update at all with the shipped keys, and the engine asks before building the levels', () => {
    const unread = new SignalStage(DEFAULT_SIGNAL_SETTINGS, undefined, 18, false);
    expect(unread.readsVenue).toBe(false);
    expect(new SignalStage(DEFAULT_SIGNAL_SETTINGS, undefined, 18).readsVenue).toBe(true);
    feed(unread);
    // Nothing was tracked: every signal is still at its start.
    expect(unread.status(200)).toMatchObject({ obi: 0, ofi: 0, tradeFlow: 0, volShortBps: 0 });
  });

  it('still tracks its own fills when the toxicity widens the quotes', () => {
    const unread = new SignalStage({ ...DEFAULT_SIGNAL_SETTINGS, toxicityWidenRatio: 1 }, undefined, 18, false);
    unread.onOwnFill('buy', 2000, 0);
    unread.observeFair(1999, DEFAULT_SIGNAL_SETTINGS.toxicityHorizonMs);
    const quotes = [{ side: 'buy' as const, price: 1999.5, size: 1, level: 0 }];
    expect(unread.adjustQuotes(quotes, 1999, DEFAULT_SIGNAL_SETTINGS.toxicityHorizonMs, { bestBid: 1999, bestAsk: 2001, tickSize: 0.01, makerFee: 0 }, 0)[0]?.price).toBeLessThan(1999.5);
  });

  it('tracks the book when the queue placement or the regime widening reads it, though no alpha weight moves the fair price', () => {
    expect(new SignalStage({ ...DEFAULT_SIGNAL_SETTINGS, volRegimeWiden: 0.5 }, undefined, 18, false).readsVenue).toBe(true);
    expect(new SignalStage({ ...DEFAULT_SIGNAL_SETTINGS, alphaObiBps: 1, alphaMaxBps: 0, queueJoinThresholdBps: 0.5 }, undefined, 18, false).readsVenue).toBe(true);
  });

  it('tracks the reference move when REFERENCE_PULL_BPS pulls on it', () => {
    const settings = { ...DEFAULT_SIGNAL_SETTINGS, referencePullBps: 1 };
    const reference = { depth: () => undefined };
    const unread = new SignalStage(settings, reference, 18, false);
    const top = (mid: number): ReferenceTop => ({ bidPrice: mid - 0.01, bidQty: 1, askPrice: mid + 0.01, askQty: 1, updateId: mid, source: 'ticker', receivedMs: 0, exchangeMs: 0 });
    unread.onReferenceTop(0, top(2000));
    unread.onQuotesSet('buy');
    unread.onQuotesSet('sell');
    unread.onReferenceTop(10, top(2001));
    expect(unread.staleSide()).toBe('sell');
  });
});

/** A one-cent book 1999.99 / 2000.01 with three times more bid size than ask size: a top-of-book imbalance of 0.5. */
async function narrowLeaningBook(s: BacktestSession, t: number, bidSize = 30_000, askSize = 10_000): Promise<void> {
  await s.advanceTo(t);
  s.clear();
  s.depth('buy', 199_999, bidSize);
  s.depth('sell', 200_001, askSize);
  s.endOfMessage();
  if (s.needsFlush()) await s.flush();
}

describe('queue-aware placement in the engine', () => {
  // ALPHA_OBI_BPS 2 on an imbalance of 0.5 predicts +1 bp; ALPHA_MAX_BPS 0 keeps the fair price the mid.
  const predicting = { ...DEFAULT_SIGNAL_SETTINGS, obiLevels: 1, alphaObiBps: 2, alphaMaxBps: 0 };

  it('rests the bid 0.5 from the fair price, off the touch, while QUEUE_JOIN_THRESHOLD_BPS is 0', async () => {
    const s = quotingSession({ signals: predicting });
    await s.start();
    await narrowLeaningBook(s, 100);
    const status = s.engine.status();
    expect(status.fair).toBe(2000);
    expect(status.signals?.predictedMoveBps).toBeCloseTo(1, 12);
    expect(status.bids[0]?.price).toBe(1999.5);
    expect(status.asks[0]?.price).toBe(2000.5);
  });

  it('joins the best bid when the book predicts a rise past the threshold, and the ask when it predicts a fall', async () => {
    const s = quotingSession({ signals: { ...predicting, queueJoinThresholdBps: 0.5 } });
    await s.start();
    await narrowLeaningBook(s, 100);
    let status = s.engine.status();
    expect(status.fair).toBe(2000);
    expect(status.bids[0]?.price).toBe(1999.99);
    expect(status.asks[0]?.price).toBe(2000.5);
    expect(status.signals?.queueJoin).toBe(1);
    await narrowLeaningBook(s, 200, 10_000, 30_000);
    status = s.engine.status();
    expect(status.asks[0]?.price).toBe(2000.01);
    expect(status.bids[0]?.price).toBe(1999.5);
    expect(status.signals?.queueJoin).toBe(-1);
  });

  it('improves the best bid by a tick with QUEUE_IMPROVE on a two-tick spread, never crossing the book', async () => {
    const s = quotingSession({ signals: { ...predicting, queueJoinThresholdBps: 0.5, queueImprove: true } });
    await s.start();
    await narrowLeaningBook(s, 100);
    expect(s.engine.status().bids[0]?.price).toBe(2000);
  });

  it('stays behind when the prediction does not pay for the fill: MIN_EDGE_BPS above the predicted move keeps the bid where the edge still holds', async () => {
    const s = quotingSession({ signals: { ...predicting, queueJoinThresholdBps: 0.5 }, minEdgeBps: 2 });
    await s.start();
    await narrowLeaningBook(s, 100);
    // The rise to 2000.2 pays for a bid up to 2000.2 × (1 − 2·10⁻⁴) = 1999.79996, rounded down to the tick: not the touch.
    expect(s.engine.status().bids[0]?.price).toBe(1999.79);
  });
});

/** A stage whose venue mid alternated calmly for 5 minutes, then jumped about for half a second. */
function stageAfterBurst(settings: Partial<SignalSettings>, isRead = true): SignalStage {
  const stage = new SignalStage({ ...DEFAULT_SIGNAL_SETTINGS, ...settings }, undefined, 18, isRead);
  let up = false;
  for (let t = 0; t <= 300_000; t += 100) {
    up = !up;
    stage.onVenueTop(t, { price: up ? 2000 : 1999.99, size: 1 }, { price: up ? 2000.02 : 2000.01, size: 1 });
  }
  for (let t = 300_010; t <= 300_500; t += 10) {
    up = !up;
    stage.onVenueTop(t, { price: up ? 2000.1 : 1999.99, size: 1 }, { price: up ? 2000.12 : 2000.01, size: 1 });
  }
  return stage;
}
/** A level-0 bid and ask 0.5 either side of 2000, and the one-cent touch they quote against. */
const burstQuotes = [
  { side: 'buy' as const, price: 1999.5, size: 0.1, level: 0 },
  { side: 'sell' as const, price: 2000.5, size: 0.1, level: 0 },
];
const burstMarket = { bestBid: 1999.99, bestAsk: 2000.01, tickSize: 0.01, makerFee: 0 };

describe('the half-spread by volatility regime in the stage', () => {
  const quotes = burstQuotes;
  const market = burstMarket;
  const widening = (volRegimeWiden: number): SignalStage => stageAfterBurst({ volRegimeWiden, volRegimeMaxWidenBps: 10 });

  it('widens both sides by widen × (regime − 1) of their distance, capped, once the short volatility runs above the long', () => {
    const stage = widening(0.1);
    const status = stage.status(300_500);
    expect(status.volRatio).toBeGreaterThan(2);
    expect(status.volRegimeWiden).toBeCloseTo(0.1 * (status.volRatio - 1), 12);
    const widened = stage.adjustQuotes(quotes, 2000, 300_500, market, 0);
    const offset = Math.min(0.5 * status.volRegimeWiden, 2000 * 10 / 10_000);
    expect(widened[0]?.price).toBeCloseTo(1999.5 - offset, 9);
    expect(widened[1]?.price).toBeCloseTo(2000.5 + offset, 9);
  });

  it('hands back the strategy\'s very quotes while VOL_REGIME_WIDEN is 0', () => {
    const stage = widening(0);
    expect(stage.adjustQuotes(quotes, 2000, 300_500, market, 0)).toBe(quotes);
    expect(stage.status(300_500).volRegimeWiden).toBe(0);
  });
});

describe('quote sizes by toxicity and volatility regime', () => {
  const market = burstMarket;
  const quotes = burstQuotes;
  it('cuts every size by 1 / (1 + k × (regime − 1)) once the short volatility runs above the long, prices untouched, and shows the share', () => {
    const stage = stageAfterBurst({ volRegimeSize: 0.5 });
    const status = stage.status(300_500);
    expect(status.volRatio).toBeGreaterThan(2);
    const share = 1 / (1 + 0.5 * (status.volRatio - 1));
    expect(status.volRegimeSize).toBeCloseTo(share, 12);
    const shrunk = stage.adjustQuotes(quotes, 2000, 300_500, market, 0);
    expect(shrunk.map((quote) => quote.size)).toEqual([0.1 * share, 0.1 * share]);
    expect(shrunk.map((quote) => quote.price)).toEqual([1999.5, 2000.5]);
  });

  it('tracks the book for the regime sizing and the fills for the toxicity sizing in a stage nothing reads', () => {
    const unread = stageAfterBurst({ volRegimeSize: 0.5 }, false);
    expect(unread.readsVenue).toBe(true);
    expect(unread.adjustQuotes(quotes, 2000, 300_500, market, 0)[0]?.size).toBeLessThan(0.05);
    const toxic = new SignalStage({ ...DEFAULT_SIGNAL_SETTINGS, toxicitySizeRatio: 1 }, undefined, 18, false);
    toxic.onOwnFill('buy', 2000, 0);
    toxic.observeFair(1999, DEFAULT_SIGNAL_SETTINGS.toxicityHorizonMs);
    // Bought at 2000, the fair price then 1999: the bids were picked off by 5 bps and keep 1/6 of their size.
    const sized = toxic.adjustQuotes(quotes, 1999, DEFAULT_SIGNAL_SETTINGS.toxicityHorizonMs, market, 0);
    expect(sized[0]?.size).toBeCloseTo(0.1 / 6, 12);
    expect(sized[1]).toBe(quotes[1]);
  });

  it('hands back the strategy\'s very quotes while TOXICITY_SIZE_RATIO and VOL_REGIME_SIZE are 0, and shows full shares', () => {
    const stage = stageAfterBurst({});
    stage.onOwnFill('buy', 2000, 0);
    stage.observeFair(1999, 300_500);
    expect(stage.adjustQuotes(quotes, 2000, 300_500, market, 0)).toBe(quotes);
    expect(stage.status(300_500)).toMatchObject({ toxicitySizeBuy: 1, toxicitySizeSell: 1, volRegimeSize: 1 });
  });

  it('rests a smaller bid once it was picked off, the size rounded down to the lot by the pipeline, and none under the minimum', async () => {
    const pickedOff = async (toxicitySizeRatio: number): Promise<BacktestSession> => {
      const s = quotingSession({ signals: { ...DEFAULT_SIGNAL_SETTINGS, toxicitySizeRatio } });
      await s.start();
      await setBook(s, 100, 1999, 2001);
      await s.advanceTo(200);
      s.trade('sell', 199_800, 1_000);
      s.endOfMessage();
      if (s.needsFlush()) await s.flush();
      expect(s.fills.length).toBeGreaterThan(0);
      await setBook(s, 1_200, 1998, 2000);
      return s;
    };
    const s = await pickedOff(1);
    const status = s.engine.status();
    const toxicity = status.signals?.toxicityBuyBps as number;
    expect(toxicity).toBeGreaterThan(2);
    expect(status.signals?.toxicitySizeBuy).toBeCloseTo(1 / (1 + toxicity), 12);
    expect(status.signals?.toxicitySizeSell).toBe(1);
    // 0.1 ETH × 1/(1 + 2.5) ≈ 0.02857, down to the 0.0001 ETH step; the ask keeps its 0.1.
    expect(status.bids[0]?.size).toBeCloseTo(Math.floor((0.1 / (1 + toxicity)) * 1e4) / 1e4, 12);
    expect(status.asks[0]?.size).toBeCloseTo(0.1, 12);
    // A ratio of 100 leaves 0.1 / 251 ≈ 0.0004 ETH, under the 0.001 ETH minimum: no bid at all.
    const harsh = (await pickedOff(100)).engine.status();
    expect(harsh.bids).toEqual([]);
    expect(harsh.asks[0]?.size).toBeCloseTo(0.1, 12);
  });
});
