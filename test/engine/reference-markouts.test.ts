/**
 * Markouts against the reference (issue 23, item 2): on a thin venue the venue's mid is our own
 * quotes, so a fill is marked against the reference mid too, in the status and on
 * `akira_mm_markout_bps{against="reference"}`, beside the venue-mid series as they were.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock, createSilentLogger, type ReferenceFeed, type ReferenceListener, type ReferenceTop } from '../../src/core/index.ts';
import { createEngineMetrics, type EngineStatus } from '../../src/engine/index.ts';
import { MarketTracker } from '../../src/engine/market.ts';
import { ReferenceStage } from '../../src/engine/reference-stage.ts';
import { ETH_USDC } from './fixtures.ts';

const info = { rules: ETH_USDC, makerFeePbips: 100, takerFeePbips: 200, steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 } };

function referenceTop(bid: number, ask: number): ReferenceTop {
  return { bidPrice: bid, bidQty: 10, askPrice: ask, askQty: 10, updateId: 1, source: 'ticker' } as ReferenceTop;
}

/** A reference feed whose tops the test sets. */
function testFeed(): ReferenceFeed {
  return {
    market: 'binance:ETHUSDT',
    start: async () => undefined,
    stop: async () => undefined,
    top: () => undefined,
    depth: () => undefined,
    status: () => ({ market: 'binance:ETHUSDT', state: 'synchronised', reason: undefined, sinceMs: 0, lastUpdateMs: 0, mid: 3000, counters: { frames: 0, malformedFrames: 0, resyncs: 0, gaps: 0, crossedBooks: 0 } }) as ReturnType<ReferenceFeed['status']>,
  };
}

function stage(clock: ManualClock, basisBps: number): { stage: ReferenceStage; listener: ReferenceListener } {
  const reference = new ReferenceStage({
    feed: testFeed(),
    settings: { price: 'mid', basisBps, basisHalfLifeS: 60, basisMaxStepBps: 1, maxDivergenceBps: 0, jumpBps: 0, jumpWindowMs: 1_000 },
    fairPrice: 'reference',
    clock,
    logger: createSilentLogger(),
    safety: { pause: () => undefined, clear: () => undefined, pauseReason: undefined, isFinished: () => false },
    pauseFor: () => undefined,
  });
  return { stage: reference, listener: reference.listener(new MarketTracker(info, 'mid'), () => undefined) };
}

describe('markouts against the reference', () => {
  it('mark each fill against the reference mid in the venue’s terms (× (1 + basis)) 1 s, 10 s and 60 s later', () => {
    const clock = new ManualClock(0);
    const { stage: reference, listener } = stage(clock, 10);
    listener.onTop(referenceTop(2999, 3001));
    reference.onFill('sell', 3000, 0);
    reference.onFill('buy', 3003, 0);
    clock.advance(1_000);
    // Reference mid 3010 × 1.001 = 3013.01: the sell at 3000 lost 43.4 bp, the buy at 3003 earned 33.3 bp.
    listener.onTop(referenceTop(3009, 3011));
    const view = reference.view(undefined);
    expect(view.markouts.counts).toEqual([2, 0, 0]);
    expect(view.markouts.meanBps[0]).toBeCloseTo(((3000 - 3013.01) / 3000 + (3013.01 - 3003) / 3003) * 5_000, 9);
    expect(view.markouts.meanBps[1]).toBeUndefined();
  });

  it('are exported as akira_mm_markout_bps{against="reference"} while the venue-mid series keep their one label', async () => {
    const metrics = createEngineMetrics({ baseDecimals: 18, quoteDecimals: 6, pair: 'ETH/USDC', hasReference: true });
    const markouts = (venue: (number | undefined)[]) => ({ meanBps: venue, counts: venue.map((value) => (value === undefined ? 0 : 1)) });
    metrics.bindStatus(() => ({ markouts: markouts([6, 2, undefined]), reference: { markouts: markouts([-4, -7, undefined]) } }) as unknown as EngineStatus);
    const text = await metrics.registry.getSingleMetricAsString('akira_mm_markout_bps');
    const lines = text.split('\n').filter((line) => line.startsWith('akira_mm_markout_bps{'));
    expect(lines).toEqual([
      'akira_mm_markout_bps{horizon="1s",pair="ETH/USDC"} 6',
      'akira_mm_markout_bps{horizon="1s",against="reference",pair="ETH/USDC"} -4',
      'akira_mm_markout_bps{horizon="10s",pair="ETH/USDC"} 2',
      'akira_mm_markout_bps{horizon="10s",against="reference",pair="ETH/USDC"} -7',
    ]);
    const alone = createEngineMetrics({ baseDecimals: 18, quoteDecimals: 6, pair: 'ETH/USDC', hasReference: true });
    alone.bindStatus(() => ({ markouts: markouts([6, undefined, undefined]), reference: undefined }) as unknown as EngineStatus);
    const withoutReference = (await alone.registry.getSingleMetricAsString('akira_mm_markout_bps')).split('\n').filter((line) => line.startsWith('akira_mm_markout_bps{'));
    expect(withoutReference).toEqual(['akira_mm_markout_bps{horizon="1s",pair="ETH/USDC"} 6']);
  });
});
