/**
 * LayerAkira's python SDK, python_akira @d8df0174cb862cc6d81c7f347a86b6d431f89662 (2025-10-22),
 * against the sim (issue 32, item 4). starknet-py cannot be installed here, so the SDK cannot run
 * end to end: each test sends exactly what the SDK sends (`LayerAkira/src/HttpClient.py`) and reads
 * the answer with a line-for-line TypeScript reading of the SDK's own parser, so a sim that drifts
 * from what python_akira reads fails here. docs/venue.md §8 records each decision.
 */
import { typedData, type TypedData } from 'starknet';
import { afterEach, describe, expect, it } from 'vitest';
import { fastSignMessageHash, parseFastSignChallenge } from '../../src/exchange/client/fast-sign.ts';
import { signHash } from '../../src/exchange/signer/index.ts';
import { addressToHex, feltToHex } from '../../src/exchange/wire/fields.ts';
import { formatCancelBody } from '../../src/exchange/wire/requests.ts';
import { CHAIN, token } from './fixtures.ts';
import { startTestSim, type TestSim } from './harness.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

/** The SDK's token decimals (its config's `[[ERC20]]` tables, here the sim's tokens). */
const DECIMALS: Readonly<Record<string, number>> = { ETH: 18, USDC: 6, USDT: 6, STRK: 18 };

/** `common.py` `precise_to_price_convert`: a decimal string (it calls `value.find('.')`). */
function preciseToPrice(value: unknown, decimals: number | undefined): bigint {
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value) || decimals === undefined) throw new Error(`precise_to_price_convert(${JSON.stringify(value)}) fails`);
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'));
}

/** Python's `int(x)` on a JSON value: an int, or a string of decimal digits. */
function pythonInt(value: unknown): bigint {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return BigInt(value.trim());
  throw new Error(`int(${JSON.stringify(value)}) fails`);
}

/** `ContractAddress(x)`: `int(x, 16)` of a hex string. */
function contractAddress(value: unknown): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) throw new Error(`ContractAddress(${JSON.stringify(value)}) fails`);
  return BigInt(value);
}

/** `Enum(x)` of the SDK's enums (`Responses.py` OrderStatus, `Requests.py` STPMode, SignScheme). */
function member<T>(allowed: readonly T[], value: unknown, name: string): T {
  if (!allowed.includes(value as T)) throw new Error(`${name}(${JSON.stringify(value)}) fails`);
  return value as T;
}

const ORDER_STATUS = ['ACC', 'OPEN', 'SCHEDULED_TO_CANCEL', 'CANCELLED', 'PARTIALLY_FILLED', 'FILLED', 'CLOSED', 'FAILED_ROLLUP', 'REIMBURSE', 'NOT_PROCESSED', 'EXPIRED'];
const STP_MODE = [0, 1, 2, 3];
const SIGN_SCHEME = ['ecdsa curve', 'account', 'direct', 'web_limit_order', ''];

type Json = Record<string, unknown>;
const at = (value: unknown, key: string): unknown => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${JSON.stringify(value)?.slice(0, 40)}[${JSON.stringify(key)}] fails`);
  if (!(key in value)) throw new Error(`KeyError: ${key}`);
  return (value as Json)[key];
};

/**
 * `HttpClient.py` `_parse_order_response(d, mode)`, every read in its order: the pair from
 * `d['ticker']['base']`/`['quote']`, the state, then mode 2's reduced fields or mode 1's order.
 */
function parseOrderResponse(d: unknown, mode: 1 | 2): Json {
  const base = at(at(d, 'ticker'), 'base') as string;
  const quote = at(at(d, 'ticker'), 'quote') as string;
  const state = at(d, 'state');
  const limitPrice = at(state, 'limit_price');
  const stateInfo = {
    filledBase: preciseToPrice(at(state, 'filled_base_amount'), DECIMALS[base]),
    filledQuote: preciseToPrice(at(state, 'filled_quote_amount'), DECIMALS[quote]),
    swaps: at(state, 'cur_number_of_swaps'),
    status: member(ORDER_STATUS, at(state, 'status'), 'OrderStatus'),
    limitPrice: limitPrice === null ? null : preciseToPrice(limitPrice, DECIMALS[quote]),
  };
  const qty = at(d, 'qty');
  const quantity = { base: preciseToPrice(at(qty, 'base_qty'), DECIMALS[base]), quote: preciseToPrice(at(qty, 'quote_qty'), DECIMALS[quote]) };
  const flags = (at(d, 'flags') as unknown[]).map(Boolean);
  if (flags.length !== 7) throw new Error(`OrderFlags(*${JSON.stringify(flags)}) fails`);
  if (mode === 2) {
    const hash = at(d, 'hash');
    if (typeof hash !== 'string') throw new Error('int(d["hash"], 16) fails');
    return {
      maker: contractAddress(at(d, 'maker')),
      hash: BigInt(hash.startsWith('0x') ? hash : `0x${hash}`),
      state: stateInfo,
      price: preciseToPrice(at(d, 'price'), DECIMALS[quote]),
      base,
      quote,
      quantity,
      flags,
      stp: member(STP_MODE, at(d, 'stp'), 'STPMode'),
      expirationTime: at(d, 'expiration_time'),
      source: at(d, 'source'),
    };
  }
  const fee = at(d, 'fee');
  const fixedFee = (entry: unknown): Json => ({ recipient: contractAddress(at(entry, 'recipient')), maker: at(entry, 'maker_pbips'), taker: at(entry, 'taker_pbips') });
  const gas = at(fee, 'gas_fee');
  const feeToken = at(gas, 'fee_token') as string;
  const constraints = at(d, 'constraints');
  return {
    maker: contractAddress(at(d, 'maker')),
    price: preciseToPrice(at(d, 'price'), DECIMALS[quote]),
    quantity,
    base,
    quote,
    tradeFee: fixedFee(at(fee, 'trade_fee')),
    routerFee: fixedFee(at(fee, 'router_fee')),
    gasFee: {
      gasPerAction: at(gas, 'gas_per_action'),
      feeToken,
      maxGasPrice: preciseToPrice(at(gas, 'max_gas_price'), DECIMALS[feeToken]),
      // `tuple(float(x) for x in gas_fee['conversion_rate'])`
      conversionRate: (at(gas, 'conversion_rate') as unknown[]).map((x) => {
        if (Number.isNaN(Number(x)) || (typeof x === 'string' && x.startsWith('0x'))) throw new Error(`float(${JSON.stringify(x)}) fails`);
        return Number(x);
      }),
    },
    constraints: {
      swaps: at(constraints, 'number_of_swaps_allowed'),
      durationValid: at(constraints, 'duration_valid'),
      createdAt: at(constraints, 'created_at'),
      stp: member(STP_MODE, at(constraints, 'stp'), 'STPMode'),
      nonce: at(constraints, 'nonce'),
      minReceive: pythonInt(at(constraints, 'min_receive_amount')),
      routerSigner: contractAddress(at(constraints, 'router_signer')),
    },
    salt: pythonInt(at(d, 'salt')),
    flags,
    source: at(d, 'source'),
    signScheme: member(SIGN_SCHEME, at(d, 'sign_scheme'), 'SignScheme'),
    state: stateInfo,
  };
}

/** A sim with two logged-in accounts: one open buy, one cancelled sell of account 0. */
async function withOrders(): Promise<{ test: TestSim; account: string; jwt: string; open: bigint; cancelled: bigint }> {
  const test = await startTestSim();
  t = test;
  await test.login(0);
  const a = test.accounts[0];
  if (a === undefined) throw new Error('account');
  const open = (await test.place(0, { price: '2000' })).hash;
  const cancelled = (await test.place(0, { price: '2100', side: 'sell' })).hash;
  await test.sim.idle();
  const cancel = a.signer.signCancel({ maker: a.address, orderHash: cancelled, salt: 11n, signScheme: 'ecdsa curve' });
  expect((await test.post('/cancel_order', formatCancelBody(cancel.request), a.jwt)).status).toBe(200);
  await test.sim.idle();
  return { test, account: addressToHex(a.address), jwt: a.jwt, open, cancelled };
}

describe('python_akira get_orders and get_order against the sim', () => {
  it('answers get_orders in both modes, active and inactive, as the bare list the SDK parses', async () => {
    const { test, account, jwt, open, cancelled } = await withOrders();
    for (const mode of [1, 2] as const) {
      for (const [isActive, expected] of [
        ['True', open],
        ['False', cancelled],
      ] as const) {
        // HttpClient.py get_orders: f'/user/orders?mode={mode}&trading_account={acc}&limit={limit}&offset={offset}&is_active={bool(is_active)}'
        const reply = await test.get('/user/orders', { mode, trading_account: account, limit: 20, offset: 0, is_active: isActive }, jwt);
        expect(reply.status).toBe(200);
        // `[self._parse_order_response(x, mode) for x in resp.data]`: a list, not {data, cursor}.
        expect(Array.isArray(reply.body.result)).toBe(true);
        const parsed = (reply.body.result as unknown[]).map((item) => parseOrderResponse(item, mode));
        expect(parsed).toHaveLength(1);
        expect(parsed[0]).toMatchObject({ base: 'ETH', quote: 'USDC', price: isActive === 'True' ? 2_000_000_000n : 2_100_000_000n });
        if (mode === 2) expect(parsed[0]?.['hash']).toBe(expected);
        expect((parsed[0]?.['state'] as Json)['status']).toBe(isActive === 'True' ? 'OPEN' : 'CANCELLED');
      }
    }
  });

  it('answers get_order in both modes with the order the SDK parses', async () => {
    const { test, account, jwt, open } = await withOrders();
    for (const mode of [1, 2] as const) {
      // HttpClient.py get_order: order_hash={order_hash} (a Python int: decimal) and active=1.
      for (const orderHash of [open.toString(), `0x${open.toString(16)}`]) {
        const reply = await test.get('/user/order', { order_hash: orderHash, trading_account: account, mode, active: 1 }, jwt);
        expect(reply.status).toBe(200);
        const parsed = parseOrderResponse(reply.body.result, mode);
        expect(parsed).toMatchObject({ base: 'ETH', quote: 'USDC', price: 2_000_000_000n });
      }
    }
    const full = parseOrderResponse((await test.get('/user/order', { order_hash: open.toString(), trading_account: account, mode: 1, active: 1 }, jwt)).body.result, 1);
    expect(full).toMatchObject({ signScheme: 'ecdsa curve', gasFee: { feeToken: 'STRK' } });
  });

  it('still answers akira-js, the swagger and our client (`active`) with {data, cursor}', async () => {
    const { test, account, jwt } = await withOrders();
    const reply = await test.get('/user/orders', { mode: 2, trading_account: account, limit: 20, offset: 0, active: 'true' }, jwt);
    expect(reply.body.result).toEqual({ data: [expect.objectContaining({ price: '2000' })], cursor: null });
  });
});

describe('python_akira cancel_all_orders with a fast-sign key', () => {
  it('answers the SNIP-12 CancelAllOrders hash the SDK computes for its request, and cancels the book', async () => {
    const { test, account, jwt, open } = await withOrders();
    const a = test.accounts[0];
    const privateKey = test.sim.accounts[0]?.privateKey;
    if (a === undefined || privateKey === undefined) throw new Error('account');
    // HttpClient.py query_fast_sign_key: GET /sign/request_fast_sign_key, then POST issue with the signed typed message.
    const challenge = parseFastSignChallenge((await test.get('/sign/request_fast_sign_key', {}, jwt)).body.result);
    const signature = signHash(fastSignMessageHash(CHAIN, a.address, challenge), privateKey);
    const key = (await test.post('/sign/issue_fast_sign_key', { msg: challenge.msg, signature: [feltToHex(signature.r), feltToHex(signature.s)] }, jwt)).body.result as string;
    expect(typeof key).toBe('string');

    for (const isEcosystemBook of [true, false]) {
      const salt = isEcosystemBook ? 73_514_208n : 5n;
      // HttpClient.py cancel_all_orders with fast_sign_key: sign (0, 0), order_hash 0 (a number), salt hex, the ticker by symbols.
      const body = {
        maker: account,
        sign: ['0x0', '0x0'],
        order_hash: 0,
        salt: `0x${salt.toString(16)}`,
        ticker: { base: 'ETH', quote: 'USDC', to_ecosystem_book: isEcosystemBook },
        sign_scheme: 'ecdsa curve',
        fast_sign_key: key,
      };
      const reply = await test.post('/cancel_all', body, jwt);
      expect(reply.status).toBe(200);
      // hasher/utils.py cancel_typed_data (order_hash None → CancelAllOrders), hashed by Hasher.py `message_hash(maker)`.
      const sdkTypedData: TypedData = {
        domain: { name: 'LayerAkira Exchange', version: '0.0.1', chainId: CHAIN.chainId },
        types: {
          StarkNetDomain: [
            { name: 'name', type: 'felt' },
            { name: 'version', type: 'felt' },
            { name: 'chainId', type: 'felt' },
          ],
          Ticker: [
            { name: 'base', type: 'felt' },
            { name: 'quote', type: 'felt' },
            { name: 'to_ecosystem_book', type: 'bool' },
          ],
          CancelAllOrders: [
            { name: 'maker', type: 'felt' },
            { name: 'salt', type: 'felt' },
            { name: 'ticker', type: 'Ticker' },
            { name: 'sign_scheme', type: 'felt' },
          ],
        },
        primaryType: 'CancelAllOrders',
        message: { maker: account, ticker: { base: token('ETH').address, quote: token('USDC').address, to_ecosystem_book: isEcosystemBook }, salt: `0x${salt.toString(16)}`, sign_scheme: 'ecdsa curve' },
      };
      expect(BigInt(reply.body.result as string)).toBe(BigInt(typedData.getMessageHash(sdkTypedData, account)));
    }
    await test.sim.idle();
    expect(test.sim.orderOf(open)?.status).toBe('CANCELLED');
  });
});
