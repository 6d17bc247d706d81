/**
 * The strategy's internals (σ, A, k, the fit's weight, half spread, skew, signals) reach the
 * engine's status and the `akira_mm_model_*` gauges, read at the view the strategy last quoted on.
 */
import { describe, expect, it } from 'vitest';
import { createEngineMetrics } from '../../src/engine/index.ts';
import { GLFT, createGlft } from '../../strategies/index.ts';
import { parseOrThrow } from '../strategies/fixtures.ts';
import { fixedQuotes, quotingSession, setBook } from './session.ts';

async function gauge(metrics: ReturnType<typeof createEngineMetrics>, name: string): Promise<Array<{ value: number; labels: Record<string, string | number> }>> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  return (metric?.values ?? []) as Array<{ value: number; labels: Record<string, string | number> }>;
}

describe('model internals', () => {
  it('are in the status and the akira_mm_model_* gauges, labelled by the model, as the strategy computed them at its last quote', async () => {
    const s = quotingSession({}, { strategy: createGlft(parseOrThrow(GLFT, { GLFT_ORDER_SIZE: '0.1' })) });
    await s.start();
    await setBook(s, 100, 1999, 2001);
    await setBook(s, 200, 1999, 2001);
    const model = s.engine.status().model;
    // No fit yet and σ 0 (too few samples): A = 1, k = 0.25 per bp, c1 = ln(1 + 2/1.25)/2 USDC at fair 2000 (k = 1.25 per USDC, γΔ = 2); no fee, σ 0.
    expect(model?.name).toBe('glft');
    expect(model?.internals).toMatchObject({ sigmaBps: 0, arrivalA: 1, arrivalKPerBps: expect.closeTo(0.25, 12), arrivalFitWeight: 0, skewBps: expect.closeTo(0, 9) });
    expect(model?.internals.halfSpreadBps).toBeCloseTo((Math.log(2.6) / 2 / 2000) * 10_000, 6);
    const metrics = createEngineMetrics({ baseDecimals: 18, quoteDecimals: 6, pair: 'ETH/USDC', hasReference: false });
    metrics.bindStatus(() => s.engine.status());
    expect(await gauge(metrics, 'akira_mm_model_arrival_k_per_bps')).toEqual([{ value: expect.closeTo(0.25, 12), labels: { model: 'glft', pair: 'ETH/USDC' } }]);
    expect((await gauge(metrics, 'akira_mm_model_half_spread_bps'))[0]?.value).toBeCloseTo(model?.internals.halfSpreadBps ?? Number.NaN, 12);
    expect(await gauge(metrics, 'akira_mm_model_signal')).toContainEqual({ value: 0, labels: { model: 'glft', signal: 'inventoryBase', pair: 'ETH/USDC' } });
    await s.finish();
  });

  it('are absent, not 0, for a strategy that reports none', async () => {
    const s = quotingSession({}, { strategy: fixedQuotes });
    await s.start();
    await setBook(s, 100, 1999, 2001);
    expect(s.engine.status().model).toBeUndefined();
    const metrics = createEngineMetrics({ baseDecimals: 18, quoteDecimals: 6, pair: 'ETH/USDC', hasReference: false });
    metrics.bindStatus(() => s.engine.status());
    expect(await gauge(metrics, 'akira_mm_model_sigma_bps')).toEqual([]);
    await s.finish();
  });
});
