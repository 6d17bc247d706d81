/**
 * A thin venue's markouts are measured against the reference's mid: the venue's own mid is set by
 * our quotes and a background maker that lags, so it would hide what a fill lost to the deep market.
 */
import { describe, expect, it } from 'vitest';
import { START_MS, ThinHarness } from './thin-harness.ts';

/** ETH_USDC ticks are 0.01 USDC. */
const TICK = 0.01;

describe('markouts on a thin venue', () => {
  it("are the reference mid's move after each fill, at 1 s, 10 s and 60 s, whatever the venue's mid did", () => {
    // The background maker re-quotes an hour late: the venue's mid stays where it was, the reference moves.
    const h = new ThinHarness({ uninformed: { share: 1, limitBps: 100 }, arbitrage: { enabled: false }, background: { lagMs: 3_600_000 } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    const askTicks = 300_020;
    h.place('sell', askTicks, 5);
    h.at(START_MS + 100).referenceTrade('buy', 300_010, 5);
    expect(h.fills).toHaveLength(1);
    expect(h.exchange.referenceMarkouts().counts).toEqual([0, 0, 0]);
    // The reference rises 100 ticks after 1 s, 300 after 10 s, falls to 200 below the fill after 60 s.
    h.at(START_MS + 1_100).referenceTop(300_090, 300_110);
    h.at(START_MS + 10_100).referenceTop(300_290, 300_310);
    h.at(START_MS + 60_100).referenceTop(299_810, 299_830);
    const { meanBps, counts } = h.exchange.referenceMarkouts();
    expect(counts).toEqual([1, 1, 1]);
    // A sell earns when the mid falls: −(mid − price) / price.
    const markout = (midTicks: number): number => (-(midTicks - askTicks) * TICK * 10_000) / (askTicks * TICK);
    expect(meanBps[0]).toBeCloseTo(markout(300_100), 9);
    expect(meanBps[1]).toBeCloseTo(markout(300_300), 9);
    expect(meanBps[2]).toBeCloseTo(markout(299_820), 9);
    expect(meanBps[2]).toBeGreaterThan(0);
  });

  it('resolve a horizon on the first reference mid at or after it, as the engine does with the venue mid', () => {
    const h = new ThinHarness({ uninformed: { share: 1, limitBps: 100 }, arbitrage: { enabled: false } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    h.place('buy', 299_980, 5);
    h.at(START_MS + 100).referenceTrade('sell', 299_990, 5);
    h.at(START_MS + 1_000).referenceTop(299_890, 299_910);
    expect(h.exchange.referenceMarkouts().counts).toEqual([0, 0, 0]);
    h.at(START_MS + 1_100).referenceTop(299_690, 299_710);
    const [oneSecond] = h.exchange.referenceMarkouts().meanBps;
    expect(oneSecond).toBeCloseTo(((299_700 - 299_980) * 10_000) / 299_980, 9);
  });
});
