/**
 * One pair's metrics as prom-client holds them (`getMetricsAsJSON`): the scorecard's counts since
 * start are counters that grow as the count does, rejections count under their code, the
 * reference market's gauges exist only for a pair that reads one, and the deprecated aliases say
 * what replaces them.
 */
import { describe, expect, it } from 'vitest';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { createEngineMetrics, rejectReasonLabel } from '../../src/engine/metrics.ts';
import type { EngineStatus, FillEffect, FillIncrement } from '../../src/engine/index.ts';

function status(ordersSent: number, overrides: Partial<EngineStatus> = {}): EngineStatus {
  return {
    state: 'quoting',
    haltReason: undefined,
    pauseReason: undefined,
    mid: 2_000,
    fair: 2_000,
    touch: { bid: 1_999.5, ask: 2_000.5 },
    bids: [{ price: 1_999, size: 0.1 }],
    asks: [{ price: 2_001, size: 0.1 }],
    baseBalance: 1,
    quoteBalance: 2_000,
    position: 0.1,
    inventoryCap: 0.5,
    pnl: { realized: 1, unrealized: 0.5, total: 1.5, feesPaid: 0.1, gasPaid: 0, position: 0.1, averageCost: 1_990, volumeBase: 0.2, fills: 2, makerFills: 2, takerFills: 0 },
    markouts: { meanBps: [1, undefined, undefined], counts: [2, 0, 0] },
    twoSidedUptime: 0.9,
    reference: undefined,
    scorecard: {
      twoSidedUptime: 0.9,
      timeAtTouch: 0.5,
      capBreaches: 0,
      quotingMs: 60_000,
      ordersSent,
      cancelsSent: 3,
      placedQtyUnits: 10n ** 18n,
      throttled: 0,
      gated: 0,
      rejected: 0,
      fills: 2,
      ordersPerFill: ordersSent / 2,
      fillRatio: 0.2,
      pnl: { spread: 1.2, inventory: 0.4, fees: 0.1, gas: 0, total: 1.5 },
    },
    ...overrides,
  };
}

async function metricsOf(metrics: ReturnType<typeof createEngineMetrics>): Promise<Map<string, MetricObjectWithValues<MetricValue<string>>>> {
  return new Map((await metrics.registry.getMetricsAsJSON()).map((metric) => [metric.name, metric]));
}

const valuesOf = (metric: MetricObjectWithValues<MetricValue<string>> | undefined): { labels: object; value: number }[] => (metric?.values ?? []).map(({ labels, value }) => ({ labels, value }));

describe('engine metrics', () => {
  it('count the placements and cancels sent, and cap breaches, as counters that follow the scorecard', async () => {
    const metrics = createEngineMetrics({ pair: 'ETH/USDC', baseDecimals: 18, quoteDecimals: 6, hasReference: false });
    let sent = 5;
    metrics.bindStatus(() => status(sent));
    const first = await metricsOf(metrics);
    expect(first.get('akira_mm_orders_sent_total')?.type).toBe('counter');
    expect(valuesOf(first.get('akira_mm_orders_sent_total'))).toEqual([{ labels: { pair: 'ETH/USDC' }, value: 5 }]);
    sent = 12;
    const second = await metricsOf(metrics);
    expect(valuesOf(second.get('akira_mm_orders_sent_total'))).toEqual([{ labels: { pair: 'ETH/USDC' }, value: 12 }]);
    expect(valuesOf(second.get('akira_mm_orders_sent'))).toEqual([{ labels: { pair: 'ETH/USDC' }, value: 12 }]);
    expect(second.get('akira_mm_orders_sent')?.type).toBe('gauge');
    expect(second.get('akira_mm_orders_sent')?.help).toMatch(/^deprecated: use akira_mm_orders_sent_total /);
    expect(valuesOf(second.get('akira_mm_cancels_sent_total'))).toEqual([{ labels: { pair: 'ETH/USDC' }, value: 3 }]);
    expect(valuesOf(second.get('akira_mm_cap_breaches_total'))).toEqual([{ labels: { pair: 'ETH/USDC' }, value: 0 }]);
  });

  it('read one status per scrape, so a series and its deprecated alias agree however long the scrape takes', async () => {
    const metrics = createEngineMetrics({ pair: 'ETH/USDC', baseDecimals: 18, quoteDecimals: 6, hasReference: false });
    let reads = 0;
    // Each read is a later moment: a status read per gauge would give every gauge its own value.
    metrics.bindStatus(() => {
      reads++;
      return status(reads);
    });
    const json = await metricsOf(metrics);
    expect(reads).toBe(1);
    expect(valuesOf(json.get('akira_mm_orders_sent'))).toEqual(valuesOf(json.get('akira_mm_orders_sent_total')));
    const text = await metrics.registry.metrics();
    expect(reads).toBe(2);
    expect(text).toContain('akira_mm_orders_sent_total{pair="ETH/USDC"} 2');
    expect(text).toContain('akira_mm_orders_sent{pair="ETH/USDC"} 2');
  });

  it('count a rejection under its code, not under each message', async () => {
    expect(rejectReasonLabel('EXCHANGE_BAD_REQUEST: order 0xab was not signed by this venue')).toBe('EXCHANGE_BAD_REQUEST');
    expect(rejectReasonLabel('WRONG_MAX_GAS_PRICE')).toBe('WRONG_MAX_GAS_PRICE');
    const metrics = createEngineMetrics({ pair: 'ETH/USDC', baseDecimals: 18, quoteDecimals: 6, hasReference: false });
    metrics.observer.orderRejected?.('buy', 'SIGNER_REFUSED: notional 5000 above RISK_MAX_ORDER_NOTIONAL');
    metrics.observer.orderRejected?.('buy', 'SIGNER_REFUSED: notional 7000 above RISK_MAX_ORDER_NOTIONAL');
    const rejected = valuesOf((await metricsOf(metrics)).get('akira_mm_orders_rejected_total'));
    expect(rejected.filter((sample) => sample.value > 0)).toEqual([{ labels: { side: 'buy', reason: 'SIGNER_REFUSED', pair: 'ETH/USDC' }, value: 2 }]);
    expect(rejected.length).toBeGreaterThanOrEqual(2 * 10);
  });

  it('export the reference market\'s basis, divergence and fair price only for a pair that reads one', async () => {
    const plain = createEngineMetrics({ pair: 'ETH/USDC', baseDecimals: 18, quoteDecimals: 6, hasReference: false });
    plain.bindStatus(() => status(1));
    expect([...(await metricsOf(plain)).keys()].filter((name) => name.startsWith('akira_mm_reference_'))).toEqual([]);
    const withReference = createEngineMetrics({ pair: 'ETH/USDC', baseDecimals: 18, quoteDecimals: 6, hasReference: true });
    const reference = { market: 'binance:ETHUSDT', state: 'synchronised', reason: undefined, mid: 2_001, fair: 2_000.5, basisBps: -2.5, divergenceBps: 0.4, ageMs: 20, markouts: { meanBps: [undefined, undefined, undefined], counts: [0, 0, 0] } };
    withReference.bindStatus(() => status(1, { reference }));
    const metrics = await metricsOf(withReference);
    expect(valuesOf(metrics.get('akira_mm_reference_fair_price'))).toEqual([{ labels: { pair: 'ETH/USDC' }, value: 2_000.5 }]);
    expect(valuesOf(metrics.get('akira_mm_reference_basis_bps'))).toEqual([{ labels: { pair: 'ETH/USDC' }, value: -2.5 }]);
  });

  it('name the pause reasons in force, and any other as other', async () => {
    const metrics = createEngineMetrics({ pair: 'ETH/USDC', baseDecimals: 18, quoteDecimals: 6, hasReference: false });
    metrics.bindStatus(() => status(1, { state: 'paused', pauseReason: 'stale feed, operator: maintenance' }));
    const reasons = valuesOf((await metricsOf(metrics)).get('akira_mm_pause_reason')).filter((sample) => sample.value === 1);
    expect(reasons).toEqual([
      { labels: { reason: 'stale feed', pair: 'ETH/USDC' }, value: 1 },
      { labels: { reason: 'other', pair: 'ETH/USDC' }, value: 1 },
    ]);
    const states = valuesOf((await metricsOf(metrics)).get('akira_mm_state'));
    expect(states.filter((sample) => sample.value === 1)).toEqual([{ labels: { state: 'paused', pair: 'ETH/USDC' }, value: 1 }]);
    expect(states).toHaveLength(6);
  });
});

const fill: FillIncrement = { orderId: 'o', side: 'sell', qtyUnits: 10n ** 17n, quoteUnits: 200_000_000n, priceUnits: 2_000_000_000n, isMaker: true, timeMs: 0 };
const effect = (feeQuote: number): FillEffect => ({ baseDeltaUnits: -fill.qtyUnits, quoteDeltaUnits: fill.quoteUnits, feeUnits: BigInt(Math.round(feeQuote * 1e6)), feeToken: 'quote', feeQuote });

describe('fee metrics', () => {
  it('count fees paid and maker rebates credited on two counters, since a counter cannot go down', async () => {
    const metrics = createEngineMetrics({ baseDecimals: 18, quoteDecimals: 6, pair: 'ETH/USDC', hasReference: false });
    metrics.observer.fill?.(fill, effect(0.04));
    metrics.observer.fill?.(fill, effect(-0.02));
    metrics.observer.fill?.(fill, effect(-0.02));
    metrics.observer.feeCorrected?.(effect(0.001));
    const values = await metricsOf(metrics);
    expect(values.get('akira_mm_fees_quote_total')?.values[0]?.value).toBeCloseTo(0.041, 12);
    expect(values.get('akira_mm_fee_rebates_quote_total')?.values[0]?.value).toBeCloseTo(0.04, 12);
  });
});
