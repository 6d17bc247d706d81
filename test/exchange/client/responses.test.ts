import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getChain } from '../../../src/core/index.ts';
import { parseOrdersPage, parseTickerSpecs, parseUserInfo, parseVenueOrder } from '../../../src/exchange/client/index.ts';
import { parseFrame } from '../../../src/exchange/stream/index.ts';

const chain = getChain('mainnet');
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/exchange/${name}`, import.meta.url), 'utf8')) as unknown;
const result = (name: string): unknown => (fixture(name) as { result: unknown }).result;

describe('recorded payloads', () => {
  it('read a full order with the 7-bool flags and matched = filled − failed available', () => {
    const order = parseVenueOrder(result('http_user_order_full.json'), chain);
    expect(order).toMatchObject({
      price: 1945_400000n,
      baseQty: 5n * 10n ** 17n,
      isSellSide: true,
      postOnly: true,
      isEcosystemBook: true,
      status: 'PARTIALLY_FILLED',
      filledBase: 2n * 10n ** 17n,
      failedBase: 5n * 10n ** 16n,
      filledQuote: 389_080000n,
      nonce: 3,
      createdAtS: 1718000000,
    });
  });

  it('read a reduced orders page, the SW status spelling, the cursor, and skip unknown tokens', () => {
    const page = parseOrdersPage(result('http_user_orders_reduced.json'), chain);
    expect(page.cursor).toBe('c2');
    expect(page.skipped).toBe(1);
    expect(page.orders).toHaveLength(1);
    expect(page.orders[0]).toMatchObject({ hash: 0xabcn, status: 'SCHEDULED_TO_CANCEL', createdAtS: 1718000000 });
  });

  it('read an old server’s bare list of orders', () => {
    const page = parseOrdersPage((result('http_user_orders_reduced.json') as { data: unknown[] }).data, chain);
    expect(page.orders).toHaveLength(1);
    expect(page.cursor).toBeUndefined();
  });

  it('read user info with locked amounts and tokens we do not know', () => {
    const info = parseUserInfo(result('http_user_user_info.json'), chain);
    expect(info.balances.get('ETH')).toEqual({ balance: 15n * 10n ** 17n, locked: 2n * 10n ** 17n });
    expect(info.balances.get('USDC')?.balance).toBe(1000_123456n);
    expect(info.unknownTokens).toEqual(['AUNI']);
  });

  it('read the SW ticker example with honest names', () => {
    expect(parseTickerSpecs(result('http_info_ticker_specifications.json'))).toEqual([
      { base: 'ETH', quote: 'USDT', isEcosystemBook: true, priceTick: 100000n, minQty: 10n ** 12n, qtyStep: 10n ** 10n },
    ]);
  });

  it('read an execution report and a multi-id book delta', () => {
    const exec = parseFrame(JSON.stringify(fixture('ws_fills_execution_report.json')), { chain, receivedMs: 1 });
    expect(exec).toMatchObject({ event: { type: 'execution', report: { fillPrice: 3000_500000n, accBaseQty: 15n * 10n ** 16n, accQuoteQty: 450_075000n, isSellSide: true } } });
    const snap = parseFrame(JSON.stringify(fixture('ws_snap_delta.json')), { chain, receivedMs: 1 });
    expect(snap).toMatchObject({ event: { type: 'snap', timeMs: 1718000000123, delta: { msgIdStart: 251n, msgIdEnd: 253n, bids: [{ qty: 125n * 10n ** 16n, orders: 3 }, { qty: 0n }] } } });
  });
});
