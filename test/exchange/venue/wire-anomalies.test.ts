/**
 * No dropped fills (issue 11 item 3) at the venue's edge: an odd report still reaches the engine
 * with its fill, each oddity is counted by kind, an unreadable private frame asks for a heal at
 * once, and a `fail` report nobody waited for becomes an alert naming our order.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/helpers.ts';
import { placed, setup, stopAfterEach } from '../support/live-setup.ts';

stopAfterEach();

describe('odd frames from the venue', () => {
  it('applies the fill of a report with extra decimals and an unknown status, counts both, and heals', async () => {
    const { venue, live, clock, recorded } = await setup();
    const orderId = await placed(live, clock);
    const frame = venue.executionReport(orderId.slice(2), { fillBase: '0.03', accBase: '0.0300000000000000001', status: 'SETTLING' }) as { result: Record<string, unknown> };
    venue.push(venue.fillsStream(), frame);
    const report = await eventually(() => recorded.reports.find((r) => r.filledQtyUnits > 0n));
    expect(report).toMatchObject({ orderId, filledQtyUnits: 3n * 10n ** 16n, status: 'ACC' });
    expect(recorded.resyncs).toContain('missed-fills');
    expect(Object.fromEntries(live.wireAnomalies())).toEqual({ extra_decimals: 1, unknown_status: 1 });
  });

  it('asks for a heal at once when a private frame cannot be read, and keeps the connection', async () => {
    const { venue, live, recorded } = await setup();
    venue.push(venue.fillsStream(), { stream: 'fills', client: venue.account(), result: { hash: '0xabc', fill_price: 'lots' } });
    await eventually(() => recorded.resyncs.includes('missed-fills'));
    expect(live.wireAnomalies().get('unreadable_fill')).toBe(1);
    expect(live.streamStats()?.deadConnections).toBe(0);
  });

  it('counts an unreadable market-data frame without a heal', async () => {
    const { venue, live, recorded } = await setup();
    venue.push(undefined, { stream: 'trade', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true, result: { price: 'x' } });
    await eventually(() => live.wireAnomalies().get('unreadable_frame') === 1);
    expect(recorded.resyncs).toEqual([]);
  });

  it('turns a fail report on one of our orders into an alert naming it, and heals', async () => {
    const { venue, live, clock, recorded } = await setup();
    const orderId = await placed(live, clock);
    const hash = `0x${orderId.slice(2).padStart(64, '0')}`;
    venue.push(venue.fillsStream(), { stream: 'fills', client: venue.account(), result: { report_type: 'PLACE_ORDER', req_hash: hash, entity_hash: hash, error_code_orderbook: 'NOT_ENOUGH_BALANCE' } });
    const alert = await eventually(() => recorded.alerts[0]);
    expect(alert).toMatchObject({ kind: 'request-failed', action: 'place', orderId, reason: 'NOT_ENOUGH_BALANCE' });
    expect(recorded.resyncs).toContain('missed-fills');
  });
});
