import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLAG, KIND, RecordingWriter, SIDE_BUY, SIDE_SELL } from '../../../src/backtest/data/index.ts';
import { collectSignalSamples } from '../../../src/backtest/fit/signal-samples.ts';
import { signalSettings } from '../../strategies/signals/fixtures.ts';
import { tempDir } from '../data/fixtures.ts';

const MS = 1_000_000n;

/**
 * A recording with prices ×10² and sizes ×10⁰: a book 100.00 / 100.02 (bid 3, ask 1) at t = 0,
 * a buy trade at 50 ms, the ask lifted to 100.04 at 500 ms (mid +1 bp), and a last BBO at 2 s.
 */
function writeRecording(): string {
  const path = join(tempDir('fit-samples'), 'synthetic.data');
  const writer = new RecordingWriter(path, { symbol: 'TEST', source: 'akira', priceDecimals: 2, qtyDecimals: 0 });
  const at = (ms: number): { exchNs: bigint; localNs: bigint } => ({ exchNs: BigInt(ms) * MS, localNs: BigInt(ms) * MS });
  writer.append({ kind: KIND.clear, ...at(0) });
  writer.append({ kind: KIND.depth, side: SIDE_BUY, flags: FLAG.snapshot, price: 10_000, qty: 3, ...at(0) });
  writer.append({ kind: KIND.depth, side: SIDE_SELL, flags: FLAG.snapshot | FLAG.endOfMessage, price: 10_002, qty: 1, ...at(0) });
  writer.append({ kind: KIND.trade, side: SIDE_BUY, price: 10_002, qty: 1, ...at(50) });
  writer.append({ kind: KIND.depth, side: SIDE_SELL, price: 10_002, qty: 0, ...at(500) });
  writer.append({ kind: KIND.depth, side: SIDE_SELL, flags: FLAG.endOfMessage, price: 10_004, qty: 1, ...at(500) });
  writer.append({ kind: KIND.bbo, price: 10_000, qty: 3, aux1: 10_004, aux2: 1, ...at(2_000) });
  writer.close();
  return path;
}

describe('the signals along a recording', () => {
  it('samples on a grid and pairs each sample with the mid move over the horizon, in bps', async () => {
    const samples = await collectSignalSamples([writeRecording()], signalSettings({ obiLevels: 1 }), { horizonMs: 1_000, sampleMs: 250 });
    // Grid at 250, 500, 750, 1000 ms (2 s is the last mid: 1000 + 1000 still fits, 1250 does not).
    expect(samples.timesMs).toEqual([250, 500, 750, 1_000]);
    const upBps = 10_000 * (100.02 / 100.01 - 1);
    // 250 sees the book before the lift; 500 sees every event at 500, the lift included.
    expect(samples.movesBps[0]).toBeCloseTo(upBps, 9);
    expect(samples.movesBps[1]).toBe(0);
    expect(samples.movesBps[2]).toBe(0);
    // obi, ofi, trade flow: 3 bid against 1 ask is 0.5; one buy trade.
    expect(samples.features[0]?.[0]).toBeCloseTo(0.5, 12);
    expect(samples.features[0]?.[2]).toBeGreaterThan(0);
    expect(samples.events).toBe(4);
  });

  it('samples after every book change with a grid of 0', async () => {
    const samples = await collectSignalSamples([writeRecording()], signalSettings(), { horizonMs: 1_000, sampleMs: 0 });
    expect(samples.timesMs).toEqual([0, 500]);
    expect(samples.movesBps[0]).toBeCloseTo(10_000 * (100.02 / 100.01 - 1), 9);
    expect(samples.movesBps[1]).toBe(0);
  });
});
