/**
 * Our parsers on LayerAkira's own examples (test/fixtures/exchange/venue, sources in SOURCES.md):
 * the swagger's REST bodies verbatim and WS frames in the shapes the SDKs parse. Not our sim's
 * output: a parser that only agrees with the sim would pass its own mistakes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getChain } from '../../../src/core/index.ts';
import {
  ExchangeError,
  parseBbo,
  parseConversionRate,
  parseGasPrice,
  parseOrdersPage,
  parseRouterDetails,
  parseSnapshot,
  parseSteps,
  parseTickerSpecs,
  parseUserInfo,
  parseVenueOrder,
} from '../../../src/exchange/client/index.ts';
import { openEnvelope } from '../../../src/exchange/client/envelope.ts';
import { parseFrame } from '../../../src/exchange/stream/index.ts';
import type { WireAnomalyKind } from '../../../src/exchange/wire/anomalies.ts';

const chain = getChain('sepolia');
const AETH = chain.tokens.get('AETH')!;
const AUSDC = chain.tokens.get('AUSDC')!;
const pair = { base: AETH, quote: AUSDC };
const text = (name: string): string => readFileSync(new URL(`../../fixtures/exchange/venue/${name}`, import.meta.url), 'utf8');
const result = (name: string): unknown => (JSON.parse(text(name)) as { result: unknown }).result;

function collecting(): { kinds: WireAnomalyKind[]; sink: (kind: WireAnomalyKind) => void } {
  const kinds: WireAnomalyKind[] = [];
  return { kinds, sink: (kind) => kinds.push(kind) };
}

describe('swagger REST examples', () => {
  it('read the three bbo examples, `{}` being an empty side', () => {
    expect(parseBbo(result('http_book_bbo_both_sides.json'), pair)).toEqual({
      bid: { price: 3170_631300n, qty: 4380538n * 10n ** 11n, orders: 1 },
      ask: { price: 3170_653800n, qty: 31706538n * 10n ** 14n, orders: 1 },
    });
    expect(parseBbo(result('http_book_bbo_one_side.json'), pair).bid).toBeUndefined();
    expect(parseBbo(result('http_book_bbo_empty.json'), pair)).toEqual({ bid: undefined, ask: undefined });
  });

  it('read the snapshot, its msg_id a digit string', () => {
    const snapshot = parseSnapshot(result('http_book_snapshot.json'), pair);
    expect(snapshot.msgId).toBe(250n);
    expect(snapshot.bids).toHaveLength(7);
    expect(snapshot.asks[0]).toEqual({ price: 3170_653800n, qty: 7230962n * 10n ** 11n, orders: 1 });
  });

  it('read the order examples in both modes, the full one without a hash', () => {
    expect(parseVenueOrder(result('http_user_order_light.json'), chain)).toMatchObject({
      hash: 0x07cec852aa9cfb6ed7007f793088e6a3c92f400e6299acf78060f916cfc95c67n,
      status: 'CANCELLED',
      isSellSide: true,
      postOnly: true,
      isEcosystemBook: false,
      price: 3282_794500n,
    });
    expect(parseVenueOrder(result('http_user_order_full.json'), chain)).toMatchObject({ hash: undefined, status: 'CANCELLED', nonce: 2, createdAtS: 1722095642 });
    expect(parseVenueOrder(result('http_user_order_closed_taker.json'), chain)).toMatchObject({ status: 'CLOSED', filledBase: 4466n * 10n ** 11n, filledQuote: 1_240455n });
    expect(parseVenueOrder(result('http_user_order_filled_maker.json'), chain)).toMatchObject({ status: 'FILLED', filledBase: 17043n * 10n ** 11n });
  });

  it('unwrap the orders page example’s `{"result": …}` items, and count it', () => {
    const { kinds, sink } = collecting();
    const page = parseOrdersPage(result('http_user_orders.json'), chain, sink);
    expect(page.orders).toHaveLength(1);
    expect(page.orders[0]).toMatchObject({ status: 'CANCELLED', maker: 0x033e29bc9b537bae4e370559331e2bf35b434b566f41a64601b37f410f46a580n });
    expect(page.cursor).toBe('cursor');
    expect(kinds).toEqual(['wrapped_order']);
  });

  it('read steps, ticker rules, conversion rate, router details, user info and gas price', () => {
    expect(parseSteps(result('http_info_steps_specifications.json'))).toEqual({ withdraw: 150, swapRouter: 250, swapEcosystem: 150, nonce: 100 });
    expect(parseTickerSpecs(result('http_info_ticker_specifications.json'))[1]).toEqual({
      base: 'ETH',
      quote: 'USDT',
      isEcosystemBook: true,
      priceTick: 500000n,
      minQty: 5_000_000_000_000n,
      qtyStep: 50_000_000_000n,
    });
    expect(parseConversionRate(result('http_info_conversion_rate.json'), AUSDC)).toEqual([10n ** 18n, 550000n]);
    expect(parseRouterDetails(result('http_info_router_details.json'))).toEqual({
      routerTakerPbips: 50,
      routerMakerPbips: 25,
      routerSigner: 0x1234567890abcdefn,
      routerFeeRecipient: 0xabcdef1234567890n,
    });
    const info = parseUserInfo(result('http_user_user_info.json'), chain);
    expect(info).toMatchObject({ nonce: 42, unknownTokens: ['ERC20Token'], fees: [{ base: 'ETH', quote: 'USDT', makerPbips: 50, takerPbips: 75 }] });
    expect(parseGasPrice(result('http_gas_price.json'))).toBe(1234456788907878798n);
  });

  it('turn the error examples into typed errors (429 with its suggested sleep)', () => {
    const error = (name: string, status: number): ExchangeError => {
      try {
        openEnvelope('GET /x', { status, retryAfter: undefined, text: text(name) });
      } catch (caught) {
        return caught as ExchangeError;
      }
      throw new Error('no error');
    };
    expect(error('http_error_rate_limited.json', 429)).toMatchObject({ code: 'EXCHANGE_RATE_LIMITED', retryAfterMs: 1000 });
    expect(error('http_error_auth_required.json', 401)).toMatchObject({ code: 'EXCHANGE_UNAUTHORIZED', venueError: 'Auth header required' });
    expect(error('http_error_wrong_account.json', 400)).toMatchObject({ code: 'EXCHANGE_REJECTED', venueError: 'Wrong account' });
  });
});

describe('WS frames in the SDKs’ shapes', () => {
  const frame = (name: string) => parseFrame(text(name), { chain, receivedMs: 5 });

  it('read an execution report routed by stream "fills" and client', () => {
    expect(frame('ws_fills_execution_report.json')).toMatchObject({
      type: 'event',
      event: {
        type: 'execution',
        report: {
          orderHash: 0x06640e32b7f4a9f1dc448da7373746dd1f94bfc48d6a0a9db4431e556a9eb14bn,
          client: 0x033e29bc9b537bae4e370559331e2bf35b434b566f41a64601b37f410f46a580n,
          fillPrice: 2800_900000n,
          accBaseQty: 17043n * 10n ** 11n,
          accQuoteQty: 4_773573n,
          status: 'FILLED',
          matcherResult: 'OK',
        },
      },
    });
  });

  it('read fail, rollup and cancel-all reports by their keys', () => {
    expect(frame('ws_fills_fail_report.json')).toMatchObject({ event: { type: 'fail', report: { reportType: 'WITHDRAW', errorCode: 'NOT_ENOUGH_BALANCE' } } });
    expect(frame('ws_fills_rollup_report.json')).toMatchObject({ event: { type: 'rollup', report: { orderHash: 0x06640e32b7f4a9f1dc448da7373746dd1f94bfc48d6a0a9db4431e556a9eb14bn } } });
    expect(frame('ws_fills_cancel_all_report.json')).toMatchObject({ event: { type: 'cancel-all', report: { pair: { base: 'AETH', quote: 'AUSDC' } } } });
  });

  it('read bbo (an empty side as []), trade and a book delta with digit-string ids', () => {
    expect(frame('ws_bbo.json')).toMatchObject({ event: { type: 'bbo', ecosystem: false, bid: { price: 3170_631300n }, ask: undefined, timeMs: 1722095642000 } });
    expect(frame('ws_trade.json')).toMatchObject({ event: { type: 'trade', price: 2774_681000n, quoteQty: 1_240455n, isSellSide: true } });
    expect(frame('ws_snap_delta.json')).toMatchObject({ event: { type: 'snap', delta: { msgIdStart: 251n, msgIdEnd: 251n, bids: [{ qty: 0n }, { orders: 1 }] } } });
  });
});
