/**
 * Frames with an unexpected detail keep their fill (issue 11 item 3): read past, reported by kind.
 * Without a sink (the sim reading requests) the same details are refused.
 */
import { describe, expect, it } from 'vitest';
import { getChain } from '../../../src/core/index.ts';
import { parseFrame } from '../../../src/exchange/stream/index.ts';
import { WireError } from '../../../src/exchange/wire/fields.ts';
import type { WireAnomalyKind } from '../../../src/exchange/wire/anomalies.ts';

const chain = getChain('mainnet');
const CLIENT = `0x${'acc0'.padStart(64, '0')}`;

function report(result: Record<string, unknown>, stream = 'fills'): string {
  return JSON.stringify({
    stream,
    client: CLIENT,
    pair: { base: 'ETH', quote: 'USDC' },
    result: {
      hash: '0xabc',
      fill_price: '3000.5',
      fill_base_qty: '0.05',
      fill_quote_qty: '150.025',
      acc_base_qty: '0.15',
      acc_quote_qty: '450.075',
      is_sell_side: false,
      status: 'PARTIALLY_FILLED',
      matcher_result: 'OK',
      ...result,
    },
  });
}

function lenient(text: string): { frame: ReturnType<typeof parseFrame>; kinds: WireAnomalyKind[] } {
  const kinds: WireAnomalyKind[] = [];
  const frame = parseFrame(text, { chain, receivedMs: 1, anomalies: (kind) => kinds.push(kind) });
  return { frame, kinds };
}

describe('lenient parsing of what the venue sends', () => {
  it('truncates amounts with more decimals than the token, as both SDKs do, and keeps the fill', () => {
    const { frame, kinds } = lenient(report({ fill_quote_qty: '150.0250001', acc_quote_qty: '450.07500019' }));
    expect(frame).toMatchObject({ event: { type: 'execution', report: { fillQuoteQty: 150_025000n, accQuoteQty: 450_075000n, accBaseQty: 15n * 10n ** 16n } } });
    expect(kinds).toEqual(['extra_decimals', 'extra_decimals']);
    expect(() => parseFrame(report({ fill_quote_qty: '150.0250001' }), { chain, receivedMs: 1 })).toThrow(WireError);
  });

  it('reads an unknown status as ACC and drops an unknown matcher result, keeping the cumulative fill', () => {
    const { frame, kinds } = lenient(report({ status: 'SETTLING', matcher_result: 'NEW_REASON' }));
    expect(frame).toMatchObject({ event: { type: 'execution', report: { status: 'ACC', matcherResult: undefined, accBaseQty: 15n * 10n ** 16n } } });
    expect(kinds).toEqual(['unknown_status', 'unknown_matcher_result']);
    const { frame: noStatus } = lenient(report({ status: undefined }));
    expect(noStatus).toMatchObject({ event: { report: { status: 'ACC' } } });
  });

  it('reads a private event named by its subscription instead of "fills"', () => {
    const { frame, kinds } = lenient(report({}, `fills_${CLIENT}`));
    expect(frame).toMatchObject({ event: { type: 'execution' } });
    expect(kinds).toEqual(['fills_stream_name']);
  });

  it('reads a bbo side in the REST form, empty `{}` or an object', () => {
    const text = JSON.stringify({ stream: 'bbo', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true, result: { bid: {}, ask: { price: '3001', volume: '0.5', orders: 2 } } });
    const { frame, kinds } = lenient(text);
    expect(frame).toMatchObject({ event: { type: 'bbo', bid: undefined, ask: { price: 3001_000000n, qty: 5n * 10n ** 17n, orders: 2 } } });
    expect(kinds).toEqual(['object_level', 'object_level']);
  });

  it('reads numeric msg ids of a book delta, and reports them', () => {
    const text = JSON.stringify({ stream: 'snap', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true, result: { bids: [], asks: [], msg_id: 7, msg_ids_start: 7, msg_ids_end: 7 } });
    const { frame, kinds } = lenient(text);
    expect(frame).toMatchObject({ event: { delta: { msgIdStart: 7n, msgIdEnd: 7n } } });
    expect(kinds).toEqual(['numeric_msg_id', 'numeric_msg_id', 'numeric_msg_id']);
  });

  it('still refuses a report without the fields a fill needs', () => {
    expect(() => lenient(report({ acc_base_qty: undefined }))).toThrow(/acc_base_qty/);
    expect(() => lenient(report({ hash: undefined, report_type: undefined, tx_hash: undefined, fill_price: 'lots' }))).toThrow(WireError);
  });
});
