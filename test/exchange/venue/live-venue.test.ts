import { describe, expect, it } from 'vitest';
import { CHAIN, drive, eventually } from '../support/helpers.ts';
import { START_MS, intent, placed, setup, stopAfterEach } from '../support/live-setup.ts';

stopAfterEach();

describe('live venue against a loopback exchange', () => {
  it('starts with the pair rules, our fees and the gas steps, streams subscribed and the book synced', async () => {
    const { venue, live, info, recorded } = await setup();
    expect(info).toEqual({
      rules: { base: 'ETH', quote: 'USDC', isEcosystemBook: true, priceTick: 10000n, qtyStep: 10n ** 14n, minQty: 10n ** 15n, baseDecimals: 18, quoteDecimals: 6 },
      makerFeePbips: 200,
      takerFeePbips: 1000,
      steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
    });
    expect(venue.subscriptions().sort()).toEqual(['bbo:ETH-USDC:eco', 'fills_0x000000000000000000000000000000000000000000000000000000000000acc0', 'snap:ETH-USDC:eco', 'trade:ETH-USDC:eco']);
    expect(recorded.feed).toEqual([true]);
    expect(recorded.gas[0]).toMatchObject({ gasPriceUnits: 1_000_000_000n, quotePerStrk: 0.55 });
    await eventually(() => live.book()?.isSynced());
    expect(live.book()?.bestAsk()?.price).toBe(3001_000000n);
  });

  it('places a signed order whose body carries our fees, nonce, clock time, TTL and priced gas', async () => {
    const { venue, live, clock } = await setup();
    const orderId = await placed(live, clock);
    const body = venue.seen('POST /place_order')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      maker: '0x000000000000000000000000000000000000000000000000000000000000acc0',
      price: '2999.99',
      qty: { base_qty: '0.1', quote_qty: '0' },
      ticker: ['ETH', 'USDC'],
      fee: {
        trade_fee: { recipient: CHAIN.feeRecipient, maker_pbips: 200, taker_pbips: 1000 },
        gas_fee: { gas_per_action: 150, fee_token: 'STRK', max_gas_price: '0.00000000125', conversion_rate: ['1', '1'] },
      },
      constraints: { created_at: Math.floor(START_MS / 1000), nonce: 3, duration_valid: 3600, number_of_swaps_allowed: 0, stp: 0 },
      flags: { post_only: true, is_sell_side: false, to_ecosystem_book: true, is_market_order: false },
      source: 'layerakira',
      sign_scheme: 'ecdsa curve',
    });
    expect(orderId).toMatch(/^0x[0-9a-f]+$/);
    expect((await drive(clock, live.fetchOrder(orderId), 0))?.status).toBe('OPEN');
  });

  it('turns execution reports into cumulative order reports, dropping duplicates and stale ones', async () => {
    const { venue, live, clock, recorded } = await setup();
    const orderId = await placed(live, clock);
    const hash = orderId.slice(2);
    venue.fill(hash, '0.03', '0.03', 'PARTIALLY_FILLED');
    venue.fill(hash, '0.03', '0.03', 'PARTIALLY_FILLED');
    venue.push('fills_0x000000000000000000000000000000000000000000000000000000000000acc0', venue.executionReport(hash, { fillBase: '0', accBase: '0', status: 'OPEN' }));
    venue.fill(hash, '0.07', '0.1', 'FILLED', '2999.99');
    await eventually(() => recorded.reports.length >= 2 && recorded.reports.at(-1)?.status === 'FILLED');
    expect(recorded.reports.map((r) => [r.status, r.filledQtyUnits, r.lastFillPriceUnits])).toEqual([
      ['PARTIALLY_FILLED', 3n * 10n ** 16n, 3000_000000n],
      ['FILLED', 10n ** 17n, 2999_990000n],
    ]);
    expect(recorded.reports[0]).toMatchObject({ orderId, side: 'buy', priceUnits: intent.priceUnits, qtyUnits: intent.qtyUnits, lastFillIsMaker: true });
  });

  it('keeps the local book from snap deltas and resyncs from REST on a sequence gap', async () => {
    const { venue, live } = await setup();
    await eventually(() => live.book()?.msgId === 100n);
    const snap = (start: number, end: number, bid: string) => ({
      stream: 'snap',
      pair: { base: 'ETH', quote: 'USDC' },
      ecosystem: true,
      result: { bids: [[bid, '1', 1]], asks: [], msg_ids_start: start, msg_ids_end: end },
    });
    venue.push('snap:ETH-USDC:eco', snap(101, 101, '3000.5'));
    await eventually(() => live.book()?.msgId === 101n);
    expect(live.book()?.bestBid()?.price).toBe(3000_500000n);
    venue.snapshot = { bids: [['2999', '4', 2]], asks: [['3002', '1', 1]], msg_id: '110' };
    venue.push('snap:ETH-USDC:eco', snap(105, 105, '3000.6'));
    await eventually(() => live.book()?.msgId === 110n);
    expect(live.book()?.bestBid()?.price).toBe(2999_000000n);
    expect(venue.seen('GET /book/snapshot')).toHaveLength(2);
  });

  it('seeds the top of book from REST, then passes bbo and trades of our pair to the engine', async () => {
    const { venue, recorded } = await setup();
    expect(recorded.tops[0]).toEqual({ bidPriceUnits: 3000_000000n, bidQtyUnits: 15n * 10n ** 17n, askPriceUnits: undefined, askQtyUnits: 0n, timeMs: START_MS });
    venue.push('bbo:ETH-USDC:eco', { stream: 'bbo', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true, result: { bid: ['3000', '1', 1], ask: [] } });
    venue.push('bbo:STRK-USDC:eco', { stream: 'bbo', pair: { base: 'STRK', quote: 'USDC' }, ecosystem: true, result: { bid: ['0.5', '1', 1], ask: [] } });
    venue.push('trade:ETH-USDC:eco', { stream: 'trade', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true, result: { price: '3000', base_qty: '0.5', is_sell_side: true } });
    await eventually(() => recorded.tops.length === 2 && recorded.trades.length === 1);
    expect(recorded.tops[1]).toEqual({ bidPriceUnits: 3000_000000n, bidQtyUnits: 10n ** 18n, askPriceUnits: undefined, askQtyUnits: 0n, timeMs: START_MS });
    expect(recorded.trades[0]).toEqual({ priceUnits: 3000_000000n, qtyUnits: 5n * 10n ** 17n, aggressor: 'sell', timeMs: START_MS });
  });

  it('reads the top of book over REST when a quiet book sends no bbo, so the feed does not look dead', async () => {
    const { venue, clock, recorded } = await setup();
    expect(venue.seen('GET /book/bbo')).toHaveLength(1);
    await clock.advanceAsync(5_000);
    await eventually(() => recorded.tops.length === 2);
    expect(recorded.tops[1]?.timeMs).toBe(START_MS + 5_000);
    venue.push('bbo:ETH-USDC:eco', { stream: 'bbo', pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true, result: { bid: ['3000', '1', 1], ask: [] } });
    await eventually(() => recorded.tops.length === 3);
    await clock.advanceAsync(4_000);
    expect(venue.seen('GET /book/bbo')).toHaveLength(2);
  });

  it('settles a placement whose answer was a 5xx by finding its hash, without sending it again', async () => {
    const { venue, live, clock } = await setup();
    venue.queue('POST /place_order', { status: 500, body: '{"code":500,"error":"internal"}', afterApplying: true });
    await placed(live, clock);
    expect(venue.seen('POST /place_order')).toHaveLength(1);
  });

  it('settles a placement answered with an unreadable 200 by finding its hash', async () => {
    const { venue, live, clock } = await setup();
    venue.queue('POST /place_order', { status: 200, body: '{"result": ', afterApplying: true });
    await placed(live, clock);
    expect(venue.seen('POST /place_order')).toHaveLength(1);
  });

  it('reports a placement as unknown when the venue failed and never shows the hash', async () => {
    const { venue, live, clock } = await setup();
    venue.queue('POST /place_order', { status: 503, body: '{"code":503,"error":"busy"}' });
    const signed = await drive(clock, live.signOrder(intent), 0);
    const outcome = await drive(clock, live.submitOrder(signed));
    expect(outcome).toEqual({ kind: 'unknown', orderId: signed.orderId, reason: 'busy' });
    expect(venue.seen('POST /place_order')).toHaveLength(1);
  });

  it('reports a rejection by its §4 name and picks up the new nonce after WRONG_NONCE', async () => {
    const { venue, live, clock } = await setup();
    venue.nonce = 5;
    const signed = await drive(clock, live.signOrder(intent), 0);
    expect(await drive(clock, live.submitOrder(signed), 0)).toEqual({ kind: 'rejected', orderId: signed.orderId, reason: 'WRONG_NONCE' });
    await eventually(() => venue.seen('GET /user/user_info').length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await placed(live, clock);
    const body = venue.seen('POST /place_order').at(-1)?.body as { constraints: { nonce: number } };
    expect(body.constraints.nonce).toBe(5);
  });

  it('refuses an intent off the tick before sending it', async () => {
    const { venue, live, clock } = await setup();
    const signed = await drive(clock, live.signOrder({ ...intent, priceUnits: 2999_999999n }), 0);
    const outcome = await drive(clock, live.submitOrder(signed), 0);
    expect(outcome.kind).toBe('rejected');
    expect(venue.seen('POST /place_order')).toHaveLength(0);
  });

  it('cancels one order, and names the refusal for an unknown one', async () => {
    const { venue, live, clock } = await setup();
    const orderId = await placed(live, clock);
    expect(await drive(clock, live.cancelOrder(orderId), 0)).toEqual({ kind: 'accepted' });
    expect(venue.seen('POST /cancel_order')[0]?.body).toMatchObject({ maker: '0x000000000000000000000000000000000000000000000000000000000000acc0', order_hash: `0x${orderId.slice(2).padStart(64, '0')}`, sign_scheme: 'ecdsa curve' });
    expect(await drive(clock, live.cancelOrder('0xdead'), 0)).toEqual({ kind: 'rejected', reason: 'NO_ORDERS_WITH_THIS_ID' });
    expect(await drive(clock, live.cancelOrder('not-a-hash'), 0)).toMatchObject({ kind: 'rejected' });
  });

  it('lists open orders across pages and cancels them all', async () => {
    const { live, clock } = await setup();
    for (let i = 0; i < 23; i++) await placed(live, clock, { ...intent, priceUnits: intent.priceUnits - BigInt(i) * 10000n });
    const open = await drive(clock, live.fetchOpenOrders(), 0);
    expect(open).toHaveLength(23);
    expect(open.every((report) => report.status === 'OPEN' && report.side === 'buy')).toBe(true);
    expect(await drive(clock, live.cancelAll(), 0)).toEqual({ kind: 'accepted' });
    expect(await drive(clock, live.fetchOpenOrders(), 0)).toEqual([]);
  });

  it('raises the nonce on chain with a priced gas fee and signs later orders with it', async () => {
    const { venue, live, clock } = await setup();
    expect(await drive(clock, live.increaseNonce(), 0)).toEqual({ kind: 'accepted' });
    expect(venue.seen('POST /increase_nonce')[0]?.body).toMatchObject({ new_nonce: 4, gas_fee: { gas_per_action: 100, fee_token: 'STRK' } });
    await placed(live, clock);
    expect((venue.seen('POST /place_order')[0]?.body as { constraints: { nonce: number } }).constraints.nonce).toBe(4);
  });

  it('sends no nonce increase when the current nonce cannot be read', async () => {
    const { venue, live, clock } = await setup();
    for (let i = 0; i < 4; i++) venue.queue('GET /user/user_info', { status: 500, body: '{"code":500,"error":"down"}' });
    expect(await drive(clock, live.increaseNonce())).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('nothing sent') });
    expect(venue.seen('POST /increase_nonce')).toHaveLength(0);
  });

  it('reads balances and nonce', async () => {
    const { live, clock } = await setup();
    const account = await drive(clock, live.fetchAccount(), 0);
    expect(account.nonce).toBe(3);
    expect(account.balances.get('USDC')).toEqual({ total: 50_000_000000n, locked: 0n });
  });

  it('tells the engine to heal after a reconnect, with the feed down meanwhile', async () => {
    const { venue, clock, recorded } = await setup();
    venue.dropSockets();
    await eventually(() => recorded.resyncs.includes('reconnected'), { clock, stepMs: 250 });
    expect(recorded.feed).toEqual([true, false, true]);
    expect(venue.subscriptions()).toHaveLength(4);
  });

  it('asks for a heal when a fill fails on chain', async () => {
    const { venue, live, clock, recorded } = await setup();
    const orderId = await placed(live, clock);
    venue.fill(orderId.slice(2), '0.1', '0.1', 'FAILED_ROLLUP');
    await eventually(() => recorded.resyncs.includes('missed-fills'));
  });

  it('uses orders pre-signed on the batch signer instead of signing again', async () => {
    const { live, clock, signer } = await setup({ batch: true });
    live.prepareOrders([intent, { ...intent, priceUnits: intent.priceUnits - 10000n }]);
    await eventually(() => signer.calls.order === 2);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await placed(live, clock);
    expect(signer.calls.order).toBe(2);
    await placed(live, clock);
    expect(signer.calls.order).toBe(3);
  });

  it('prices gas in a non-STRK fee token from the fee-token/STRK book mid, skewed against us', async () => {
    const { venue, live, clock } = await setup({ settings: { feeToken: 'USDC' } });
    expect(venue.subscriptions()).toContain('bbo:STRK-USDC:eco');
    await placed(live, clock);
    const gasFee = (body: unknown) => (body as { fee: { gas_fee: { fee_token: string; conversion_rate: string[] } } }).fee.gas_fee;
    expect(gasFee(venue.seen('POST /place_order')[0]?.body)).toMatchObject({ fee_token: 'USDC', conversion_rate: ['1', '0.55275'] });
    venue.push('bbo:STRK-USDC:eco', { stream: 'bbo', pair: { base: 'STRK', quote: 'USDC' }, ecosystem: true, result: { bid: ['0.6', '100', 1], ask: ['0.7', '100', 1] } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await placed(live, clock, { ...intent, priceUnits: intent.priceUnits - 10000n });
    expect(gasFee(venue.seen('POST /place_order')[1]?.body).conversion_rate).toEqual(['1', '0.65325']);
  });

  it('refuses to start on a pair the venue does not list', async () => {
    const error = await setup({ settings: { pair: { base: 'STRK', quote: 'USDT' } } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'EXCHANGE_UNSUPPORTED_PAIR' });
  });
});
