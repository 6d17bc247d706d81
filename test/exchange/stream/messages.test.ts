import { describe, expect, it } from 'vitest';
import { getChain } from '../../../src/core/index.ts';
import { parseFrame, subscriptionMessage, topicKey } from '../../../src/exchange/stream/index.ts';
import { WireError } from '../../../src/exchange/wire/fields.ts';

const chain = getChain('mainnet');
const context = { chain, receivedMs: 5_000 };
const parse = (frame: unknown, extra = {}) => parseFrame(JSON.stringify(frame), { ...context, ...extra });

describe('WS frames', () => {
  it('writes subscriptions with ecosystem_book, and fills by account', () => {
    expect(subscriptionMessage({ kind: 'bbo', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true }, 7, 'subscribe')).toEqual({
      action: 'subscribe',
      id: 7,
      stream: 'bbo',
      ticker: { base: 'ETH', quote: 'USDC', ecosystem_book: true },
    });
    expect(subscriptionMessage({ kind: 'fills', account: 0xabcn }, 8, 'unsubscribe')).toEqual({ action: 'unsubscribe', id: 8, stream: `fills_0x${'abc'.padStart(64, '0')}` });
    expect(topicKey({ kind: 'snap', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: false })).toBe('snap:ETH-USDC:router');
  });

  it('tells acks from errors by their id', () => {
    expect(parse({ id: 3, result: 'OK' })).toEqual({ type: 'ack', id: 3, ok: true });
    expect(parse({ id: 4, error: 'bad stream' })).toEqual({ type: 'ack', id: 4, ok: false, error: 'bad stream' });
  });

  it('parses bbo with an empty side', () => {
    const frame = parse({ stream: 'bbo', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true, result: { bid: ['3000.5', '0.25', 3], ask: [], time: 1234 } });
    expect(frame).toEqual({
      type: 'event',
      event: { type: 'bbo', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true, bid: { price: 3000_500000n, qty: 25n * 10n ** 16n, orders: 3 }, ask: undefined, timeMs: 1234, receivedMs: 5_000 },
    });
  });

  it('parses trades and book deltas', () => {
    const trade = parse({ stream: 'trade', pair: 'ETH-USDC', ecosystem: true, result: { price: '3000', base_qty: '0.1', quote_qty: '300', is_sell_side: true } });
    expect(trade).toMatchObject({ event: { type: 'trade', price: 3000_000000n, baseQty: 10n ** 17n, quoteQty: 300_000000n, isSellSide: true, timeMs: 5_000 } });
    const snap = parse({ stream: 'snap', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true, result: { bids: [['3000', '0', 0]], asks: [], msg_ids_start: '11', msg_ids_end: 12 } });
    expect(snap).toMatchObject({ event: { type: 'snap', delta: { bids: [{ price: 3000_000000n, qty: 0n, orders: 0 }], asks: [], msgIdStart: 11n, msgIdEnd: 12n } } });
  });

  it('tells the four fills variants apart by their keys', () => {
    const exec = parse({
      stream: 'fills_0xacc0',
      client: '0xacc0',
      pair: { base: 'ETH', quote: 'USDC' },
      result: { hash: '0xabc', fill_price: '3000', fill_base_qty: '0.1', fill_quote_qty: '300', acc_base_qty: '0.2', acc_quote_qty: '600', is_sell_side: false, status: 'PARTIALLY_FILLED', matcher_result: ' HIT_SWAPS_LIMIT' },
    });
    expect(exec).toMatchObject({ event: { type: 'execution', report: { orderHash: 0xabcn, client: 0xacc0n, accBaseQty: 2n * 10n ** 17n, status: 'PARTIALLY_FILLED', matcherResult: 'HIT_SWAPS_LIMIT' } } });
    expect(parse({ stream: 'fills', result: { report_type: 'WITHDRAW', req_hash: '0x1', entity_hash: '0x2', error_code_orderbook: 'NOT_ENOUGH_BALANCE' } })).toMatchObject({
      event: { type: 'fail', report: { reportType: 'WITHDRAW', requestHash: 1n, entityHash: 2n, errorCode: 'NOT_ENOUGH_BALANCE' } },
    });
    expect(parse({ stream: 'fills', result: { tx_hash: '0x9', order_hash: '0xabc', source: 'layerakira' } })).toMatchObject({ event: { type: 'rollup', report: { txHash: 9n, orderHash: 0xabcn } } });
    expect(parse({ stream: 'fills', pair: { base: 'ETH', quote: 'USDC' }, result: { cancel_ticker_hash: '0x5' } })).toMatchObject({
      event: { type: 'cancel-all', report: { cancelTickerHash: 5n, pair: { base: 'ETH', quote: 'USDC' } } },
    });
  });

  it('finds the pair of a report that does not name it from our orders', () => {
    const frame = { stream: 'fills', result: { hash: '0xabc', fill_price: '1', fill_base_qty: '1', fill_quote_qty: '1', acc_base_qty: '1', acc_quote_qty: '1', is_sell_side: true, status: 'FILLED' } };
    expect(() => parse(frame)).toThrow(WireError);
    expect(parse(frame, { pairOfOrder: () => ({ base: 'STRK', quote: 'USDC' }) })).toMatchObject({ event: { report: { pair: { base: 'STRK', quote: 'USDC' }, accBaseQty: 10n ** 18n } } });
  });

  it.each([
    ['not JSON', '{'],
    ['an array', '[]'],
    ['an unknown stream', JSON.stringify({ stream: 'candles', result: {} })],
    ['a negative amount', JSON.stringify({ stream: 'trade', pair: 'ETH-USDC', result: { price: '-1', base_qty: '1', is_sell_side: true } })],
    ['an unknown token', JSON.stringify({ stream: 'bbo', pair: 'FOO-USDC', result: { bid: [], ask: [] } })],
    ['an unknown status', JSON.stringify({ stream: 'fills', pair: 'ETH-USDC', result: { hash: '0x1', fill_price: '1', fill_base_qty: '1', fill_quote_qty: '1', acc_base_qty: '1', acc_quote_qty: '1', is_sell_side: true, status: 'DONE' } })],
    ['a delta ending before it starts', JSON.stringify({ stream: 'snap', pair: 'ETH-USDC', result: { bids: [], asks: [], msg_ids_start: 5, msg_ids_end: 4 } })],
  ])('refuses %s with a WireError', (_name, text) => {
    expect(() => parseFrame(text, context)).toThrow(WireError);
  });
});
