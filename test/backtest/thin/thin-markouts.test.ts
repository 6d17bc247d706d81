/**
 * A thin venue's markouts are measured against the reference's mid: the venue's own mid is set by
 * our quotes and a background maker that lags, so it would hide what a fill lost to the deep market.
 * The backtest marks every fill out with one recorder (fill-markouts.ts); the thin exchange names
 * the mid it reads.
 */
import { describe, expect, it } from 'vitest';
import { FillMarkoutRecorder, type MarkedFill } from '../../../src/backtest/fill-markouts.ts';
import { START_MS, ThinHarness } from './thin-harness.ts';

/** ETH_USDC ticks are 0.01 USDC. */
const TICK = 0.01;

/** The harness's fills as the recorder reads them, and a recorder over them reading the exchange's markout mid. */
function recorderOf(h: ThinHarness): { readonly fills: MarkedFill[]; readonly recorder: FillMarkoutRecorder; step(timeMs: number): void } {
  const fills: MarkedFill[] = [];
  const recorder = new FillMarkoutRecorder(fills, [1_000, 10_000, 60_000]);
  return {
    fills,
    recorder,
    // As the session does before each event: resolve what ended before it, then move time.
    step(timeMs: number) {
      for (const fill of h.fills.slice(fills.length)) fills.push({ timeMs: fill.timeMs, side: fill.side, price: fill.priceTicks * TICK });
      recorder.observe(timeMs, () => h.exchange.markoutMid());
      h.at(timeMs);
    },
  };
}

describe('markouts on a thin venue', () => {
  it("are the reference mid's move after each fill, at 1 s, 10 s and 60 s, whatever the venue's mid did", () => {
    // The background maker re-quotes an hour late: the venue's mid stays where it was, the reference moves.
    const h = new ThinHarness({ uninformed: { share: 1, limitBps: 100 }, arbitrage: { enabled: false }, background: { lagMs: 3_600_000 } });
    const r = recorderOf(h);
    r.step(START_MS);
    h.referenceTop(299_990, 300_010);
    expect(h.exchange.markoutMid()).toBeCloseTo(300_000 * TICK, 9);
    const askTicks = 300_020;
    h.place('sell', askTicks, 5);
    r.step(START_MS + 100);
    h.referenceTrade('buy', 300_010, 5);
    expect(h.fills).toHaveLength(1);
    // The reference rises 100 ticks after 1 s, 300 after 10 s, falls to 200 below the fill after 60 s.
    r.step(START_MS + 1_100);
    h.referenceTop(300_090, 300_110);
    r.step(START_MS + 10_100);
    h.referenceTop(300_290, 300_310);
    r.step(START_MS + 60_100);
    h.referenceTop(299_810, 299_830);
    const { bps } = r.recorder.finish(START_MS + 60_200, () => h.exchange.markoutMid());
    // A sell earns when the mid falls: −(mid − price) / price.
    const markout = (midTicks: number): number => (-(midTicks - askTicks) * TICK * 10_000) / (askTicks * TICK);
    expect(bps[0]?.[0]).toBeCloseTo(markout(300_100), 9);
    expect(bps[1]?.[0]).toBeCloseTo(markout(300_300), 9);
    expect(bps[2]?.[0]).toBeCloseTo(markout(299_820), 9);
    expect(bps[2]?.[0]).toBeGreaterThan(0);
  });

  it('has no mid before the reference showed a two-sided touch', () => {
    const h = new ThinHarness({ uninformed: { share: 1, limitBps: 100 }, arbitrage: { enabled: false } });
    h.at(START_MS);
    expect(h.exchange.markoutMid()).toBeUndefined();
    h.referenceTop(299_990, 300_010);
    expect(h.exchange.markoutMid()).toBeCloseTo(3_000, 9);
  });
});
