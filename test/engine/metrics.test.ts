import { describe, expect, it } from 'vitest';
import { createEngineMetrics, type FillEffect, type FillIncrement } from '../../src/engine/index.ts';

const fill: FillIncrement = { orderId: 'o', side: 'sell', qtyUnits: 10n ** 17n, quoteUnits: 200_000_000n, priceUnits: 2_000_000_000n, isMaker: true, timeMs: 0 };
const effect = (feeQuote: number): FillEffect => ({ baseDeltaUnits: -fill.qtyUnits, quoteDeltaUnits: fill.quoteUnits, feeUnits: BigInt(Math.round(feeQuote * 1e6)), feeToken: 'quote', feeQuote });

async function valueOf(metrics: ReturnType<typeof createEngineMetrics>, name: string): Promise<number | undefined> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  return metric?.values[0]?.value;
}

describe('fee metrics', () => {
  it('count fees paid and maker rebates credited on two counters, since a counter cannot go down', async () => {
    const metrics = createEngineMetrics({ baseDecimals: 18, quoteDecimals: 6, pair: 'ETH/USDC' });
    metrics.observer.fill?.(fill, effect(0.04));
    metrics.observer.fill?.(fill, effect(-0.02));
    metrics.observer.fill?.(fill, effect(-0.02));
    metrics.observer.feeCorrected?.(effect(0.001));
    expect(await valueOf(metrics, 'akira_mm_fees_quote_total')).toBeCloseTo(0.041, 12);
    expect(await valueOf(metrics, 'akira_mm_fee_rebates_quote_total')).toBeCloseTo(0.04, 12);
  });
});
