import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, type Side } from '../../../src/core/index.ts';
import { feeOnReceipt } from '../../../src/engine/index.ts';
import { ETH_USDC } from '../../engine/fixtures.ts';
import { START_MS, ThinHarness } from './thin-harness.ts';

/** Quote tokens of one tick (0.01 USDC) on one lot (0.0001 ETH). */
const TICK_LOT_QUOTE = 1e-6;
const ARBITRAGE_OFF = { enabled: false };

describe('with arbitrageurs off and a reference that never moves', () => {
  it('every fill is uninformed, at our price, and earns exactly half the quoted spread minus the maker fee', () => {
    const h = new ThinHarness({ seed: 7, arbitrage: ARBITRAGE_OFF, uninformed: { share: 0.3 } });
    const mid = 300_000;
    const halfSpreadTicks = 20;
    h.at(START_MS).referenceTop(mid - 10, mid + 10);
    const bid = h.place('buy', mid - halfSpreadTicks, 1_000_000);
    const ask = h.place('sell', mid + halfSpreadTicks, 1_000_000);
    const draws = createRng(99);
    for (let i = 1; i <= 3_000; i++) {
      const side: Side = draws.next() < 0.5 ? 'buy' : 'sell';
      h.at(START_MS + 10 * i).referenceTrade(side, side === 'buy' ? mid + 10 : mid - 10, 1 + draws.int(300));
    }
    expect(h.fills.length).toBeGreaterThan(600);
    const midUnits = BigInt(mid) * ETH_USDC.priceTick;
    const scale = 10n ** BigInt(ETH_USDC.baseDecimals);
    const makerPbips = 200;
    for (const fill of h.fills) {
      expect(fill.tag?.counterparty).toBe('uninformed');
      expect(fill.isMaker).toBe(true);
      expect(fill.orderId).toBe(fill.side === 'buy' ? bid : ask);
      const qtyUnits = BigInt(fill.lots) * ETH_USDC.qtyStep;
      // The fill valued at the reference mid, as the venue settles it (fee on what it delivers), ×10¹⁸.
      const fee = feeOnReceipt(fill.side === 'buy' ? qtyUnits : fill.quoteUnits, makerPbips);
      const pnlScaled = fill.side === 'buy' ? midUnits * (qtyUnits - fee) - fill.quoteUnits * scale : (fill.quoteUnits - fee) * scale - midUnits * qtyUnits;
      const halfSpreadScaled = BigInt(halfSpreadTicks) * ETH_USDC.priceTick * qtyUnits;
      const feeScaled = fill.side === 'buy' ? midUnits * fee : fee * scale;
      expect(pnlScaled).toBe(halfSpreadScaled - feeScaled);
      // The tag says the same before fees: a gain of the half-spread against the reference mid.
      expect(fill.tag?.referenceLossQuote).toBeCloseTo(-halfSpreadTicks * fill.lots * TICK_LOT_QUOTE, 9);
      expect(fill.tag?.referenceMid).toBe(3_000);
    }
  });
});

describe('a quote left stale while the reference steps by x bps', () => {
  const A = 300_000;

  /** Our ask at A, then the reference's bid steps to A + through (its ask 20 ticks above); returns what happened. */
  function stepThrough(through: number, lots: number, latencyMs: number, edgeBps: number, gasTickLots: number) {
    const h = new ThinHarness({
      arbitrage: { enabled: true, latencyMs, edgeBps },
      takerGasQuote: gasTickLots * TICK_LOT_QUOTE,
      // A background maker far away and slow, so only our quote can be a target.
      background: { halfSpreadBps: 2_000, lagMs: 3_600_000 },
      uninformed: { share: 0 },
    });
    h.at(START_MS).referenceTop(A - 30, A - 10);
    const id = h.place('sell', A, lots);
    const stepAt = START_MS + 1_000;
    h.at(stepAt).referenceTop(A + through, A + through + 20);
    return { h, id, stepAt };
  }

  it('is taken whole by an arbitrageur iff x > taker fee + gas + edge, exactly after their latency, at the closed-form pick-off cost', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -50, max: 1_200 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 200_000 }),
        (through, lots, latencyMs, edgeBps, gasTickLots) => {
          // x in bps of A against fee (10) + edge + gas (as bps of the quote's notional), exactly:
          // through/A·10⁴ > 10 + edge + gas/(A·lots)·10⁴  ⇔  through·lots·10⁴ > (10 + edge)·A·lots + gas·10⁴.
          const lhs = BigInt(through) * BigInt(lots) * 10_000n;
          const rhs = BigInt(10 + edgeBps) * BigInt(A) * BigInt(lots) + BigInt(gasTickLots) * 10_000n;
          // Gas enters as a float (quote tokens per trade); an exact tie is left to the unit test of the rule.
          fc.pre(lhs !== rhs);
          const expected = lhs > rhs;
          const { h, id, stepAt } = stepThrough(through, lots, latencyMs, edgeBps, gasTickLots);
          if (latencyMs > 0) {
            h.at(stepAt + latencyMs - 1);
            expect(h.fills).toEqual([]);
          }
          h.at(stepAt + latencyMs);
          if (!expected) {
            h.at(stepAt + latencyMs + 10_000);
            expect(h.fills).toEqual([]);
            expect(h.order(id).status).toBe('OPEN');
            return;
          }
          expect(h.fills).toHaveLength(1);
          const fill = h.fills[0];
          expect(fill?.timeMs).toBe(stepAt + latencyMs);
          expect(fill?.lots).toBe(lots);
          expect(fill?.priceTicks).toBe(A);
          expect(fill?.tag?.counterparty).toBe('arbitrage');
          // Pick-off cost = (reference mid at the fill − our price) × size.
          expect(fill?.tag?.referenceLossQuote).toBeCloseTo((through + 10) * lots * TICK_LOT_QUOTE, 9);
          expect(h.order(id).status).toBe('FILLED');
          expect(h.trades).toEqual([{ timeMs: stepAt + latencyMs, aggressor: 'buy', priceTicks: A, lots }]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('survives when our cancel reaches the venue before the arbitrageur, and not when both arrive in the same ms', () => {
    const early = stepThrough(600, 100, 50, 5, 0);
    early.h.at(early.stepAt + 49);
    expect(early.h.exchange.cancel(early.id)).toBe(true);
    early.h.at(early.stepAt + 1_000);
    expect(early.h.fills).toEqual([]);

    const tie = stepThrough(600, 100, 50, 5, 0);
    // Our cancel arrives at the very ms the arbitrageur does (the scheduler has not woken the venue yet).
    tie.h.clock.advanceTo(tie.stepAt + 50);
    expect(tie.h.exchange.cancel(tie.id)).toBe(false);
    expect(tie.h.fills.map((fill) => fill.tag?.counterparty)).toEqual(['arbitrage']);
  });

  it('is taken when the reference bid leaves it behind while it is in flight (a stale order on arrival)', () => {
    const h = new ThinHarness({ arbitrage: { latencyMs: 40 }, background: { halfSpreadBps: 2_000, lagMs: 3_600_000 }, uninformed: { share: 0 } });
    h.at(START_MS).referenceTop(A + 600, A + 620);
    h.at(START_MS + 5);
    h.place('sell', A, 10);
    h.at(START_MS + 44);
    expect(h.fills).toEqual([]);
    h.at(START_MS + 45);
    expect(h.fills.map((fill) => [fill.timeMs, fill.tag?.counterparty])).toEqual([[START_MS + 45, 'arbitrage']]);
  });
});

describe('uninformed takers over a run', () => {
  /** Reference trades of random sizes at a still touch; returns the reference's lots and what came to the venue. */
  function thin(seed: number, share: number, sizeScale: number) {
    const h = new ThinHarness({ seed, uninformed: { share, sizeScale }, arbitrage: ARBITRAGE_OFF });
    h.at(START_MS).referenceTop(299_990, 300_010);
    const draws = createRng(seed + 1_000);
    const sizes: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const lots = 1 + draws.int(1_000);
      sizes.push(lots);
      h.at(START_MS + i).referenceTrade(i % 2 === 0 ? 'buy' : 'sell', i % 2 === 0 ? 300_010 : 299_990, lots);
    }
    return { h, sizes, stats: h.exchange.stats() };
  }

  for (const [share, sizeScale] of [
    [0.01, 1],
    [0.1, 1],
    [0.5, 1],
    [0.2, 0.37],
  ] as const) {
    it(`bring share × the reference's volume (share ${share}, size × ${sizeScale}), within the binomial interval`, () => {
      for (const seed of [1, 2, 3]) {
        const { sizes, stats } = thin(seed, share, sizeScale);
        const scaled = sizes.map((lots) => Math.round(lots * sizeScale));
        expect(stats.referenceTrades).toBe(sizes.length);
        expect(stats.referenceLots).toBe(sizes.reduce((sum, lots) => sum + lots, 0));
        // Each trade comes with probability `share`: the volume's mean and variance are those of a
        // sum of independent Bernoulli-weighted sizes; 4.5 σ puts a false alarm below 1 in 100 000.
        const mean = share * scaled.reduce((sum, lots) => sum + lots, 0);
        const sigma = Math.sqrt(share * (1 - share) * scaled.reduce((sum, lots) => sum + lots * lots, 0));
        expect(Math.abs(stats.uninformedLots - mean)).toBeLessThanOrEqual(4.5 * sigma);
        const countSigma = Math.sqrt(sizes.length * share * (1 - share));
        expect(Math.abs(stats.uninformedTakers - sizes.length * share)).toBeLessThanOrEqual(4.5 * countSigma);
      }
    });
  }

  it('are the same takers for the same seed, whatever we quote, and others for another seed', () => {
    const a = thin(5, 0.1, 1);
    const b = thin(5, 0.1, 1);
    const c = thin(6, 0.1, 1);
    expect(b.stats).toEqual(a.stats);
    expect(c.stats).not.toEqual(a.stats);
  });
});
