/**
 * Our client sends every address, key and hash in the padded form LayerAkira's SDKs send
 * (python_akira `ContractAddress.as_str`, akira-js `normalize`): 0x and 64 lowercase hex digits.
 * The sim reads any spelling as the same number (docs/venue.md §2); the live venue may not, so
 * our wire output keeps the one form both SDKs agree on. The account here (0xacc0) is short, so
 * an unpadded form would show.
 */
import { describe, expect, it } from 'vitest';
import { formatWithdrawBody } from '../../../src/exchange/wire/requests.ts';
import { ACCOUNT, CHAIN, drive, makeRest } from '../support/helpers.ts';
import { placed, setup, stopAfterEach } from '../support/live-setup.ts';
import type { SeenRequest } from '../support/loopback-venue.ts';

stopAfterEach();

const PADDED = /^0x[0-9a-f]{64}$/;
const ADDRESS_QUERY = new Set(['user', 'account', 'trading_account', 'order_hash']);
const ADDRESS_BODY = new Set(['maker', 'recipient', 'router_signer', 'receiver', 'order_hash']);

/** Every address-like value of a request, with where it was, that is not in the padded form. */
function unpadded(request: SeenRequest): string[] {
  const found: string[] = [];
  for (const [key, value] of Object.entries(request.query)) {
    if (ADDRESS_QUERY.has(key) && !PADDED.test(value)) found.push(`${request.method} ${request.path}?${key}=${value}`);
  }
  const walk = (value: unknown, path: string): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      // cancel-all carries `order_hash: 0`, a number, as both SDKs send it.
      if (ADDRESS_BODY.has(key) && typeof inner === 'string' && !PADDED.test(inner)) found.push(`${request.method} ${request.path} ${path}${key}=${inner}`);
      walk(inner, `${path}${key}.`);
    }
  };
  walk(request.body, '');
  return found;
}

describe('our client’s wire output', () => {
  it('pads every address, key and hash it sends in queries, bodies, the WS signer and the fills subscription, and spells booleans as akira-js does', async () => {
    const { venue, live, clock } = await setup();
    const orderId = await placed(live, clock);
    await drive(clock, live.fetchOpenOrders(), 0);
    expect(await drive(clock, live.cancelOrder(orderId), 0)).toEqual({ kind: 'accepted' });
    expect(await drive(clock, live.cancelAll(), 0)).toEqual({ kind: 'accepted' });
    expect(await drive(clock, live.increaseNonce(), 0)).toEqual({ kind: 'accepted' });
    const { rest } = makeRest(venue.httpUrl);
    // The loopback venue has no fast-sign endpoint: only the query we sent matters here.
    await rest.requestFastSignKey().catch(() => undefined);

    const sent = venue.requests.map((request) => `${request.method} ${request.path}`);
    for (const endpoint of ['GET /sign/request_sign_data', 'GET /user/user_info', 'GET /user/orders', 'POST /place_order', 'POST /cancel_order', 'POST /cancel_all', 'POST /increase_nonce', 'GET /sign/request_fast_sign_key']) {
      expect(sent).toContain(endpoint);
    }
    expect(venue.requests.flatMap(unpadded)).toEqual([]);
    expect(venue.seen('POST /place_order')[0]?.body).toMatchObject({ maker: `0x${'0'.repeat(60)}acc0`, constraints: { router_signer: `0x${'0'.repeat(64)}` } });
    // Booleans in akira-js's spelling per endpoint (the sim reads any, the venue may not).
    const booleans = venue.requests.flatMap((request) =>
      Object.entries(request.query)
        .filter(([key]) => key === 'active' || key === 'is_active' || key === 'to_ecosystem_book' || key === 'is_taker')
        .map(([key, value]) => `${request.path} ${key}=${value}`),
    );
    expect(booleans).toContain('/user/orders active=true');
    for (const seen of booleans) expect(seen).toMatch(/^\/user\/orders \w+=(true|false)$|^\/(user\/order|book\/\w+) \w+=[01]$/);
    // The loopback venue upgrades only for the padded signer, so a subscription proves it.
    expect(venue.subscriptions()).toContain(`fills_0x${ACCOUNT.toString(16).padStart(64, '0')}`);
  });

  it('pads the maker and receiver of a withdraw', () => {
    const usdc = CHAIN.tokens.get('USDC');
    const strk = CHAIN.tokens.get('STRK');
    if (usdc === undefined || strk === undefined) throw new Error('tokens');
    const body = formatWithdrawBody({ maker: ACCOUNT, token: usdc, amount: 10n ** 6n, salt: 1n, receiver: 0xbeefn, gasFee: { gasPerAction: 150, feeToken: strk, maxGasPrice: 1n, conversionRate: [1n, 1n] }, signScheme: 'ecdsa curve' });
    expect(body).toMatchObject({ maker: `0x${'0'.repeat(60)}acc0`, receiver: `0x${'0'.repeat(60)}beef` });
  });
});
