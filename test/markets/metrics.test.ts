import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ManualClock, type ReferenceFeed, type ReferenceStatus } from '../../src/core/index.ts';
import { registerReferenceMetrics } from '../../src/markets/index.ts';

describe('reference metrics', () => {
  it('export mid, age, counters and state from the feed status at scrape time', async () => {
    const clock = new ManualClock(10_000);
    let status: ReferenceStatus = {
      market: 'binance:ETHUSDT',
      state: 'synchronised',
      reason: undefined,
      sinceMs: 0,
      lastUpdateMs: 8_500,
      mid: 2683.805,
      counters: { frames: 10, malformedFrames: 2, resyncs: 1, gaps: 1, crossedBooks: 0, snapshots: 2, reconnects: 3, rollovers: 0 },
    };
    const feed: ReferenceFeed = { market: 'binance:ETHUSDT', start: async () => undefined, stop: async () => undefined, top: () => undefined, depth: () => undefined, status: () => status };
    const registry = new Registry();
    registerReferenceMetrics(registry, feed, clock);
    const text = await registry.metrics();
    expect(text).toContain('akira_mm_reference_mid{market="binance:ETHUSDT"} 2683.805');
    expect(text).toContain('akira_mm_reference_age_seconds{market="binance:ETHUSDT"} 1.5');
    expect(text).toContain('akira_mm_reference_resyncs_total{market="binance:ETHUSDT"} 1');
    expect(text).toContain('akira_mm_reference_malformed_frames_total{market="binance:ETHUSDT"} 2');
    expect(text).toContain('akira_mm_reference_reconnects_total{market="binance:ETHUSDT"} 3');
    expect(text).toContain('akira_mm_reference_state{market="binance:ETHUSDT",state="synchronised"} 1');
    status = { ...status, state: 'stale', reason: 'no-data', mid: undefined };
    const stale = await registry.metrics();
    expect(stale).not.toMatch(/akira_mm_reference_mid\{/);
    expect(stale).toContain('akira_mm_reference_state{market="binance:ETHUSDT",state="stale"} 1');
    expect(stale).toContain('akira_mm_reference_state{market="binance:ETHUSDT",state="synchronised"} 0');
  });
});
