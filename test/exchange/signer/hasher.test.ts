import fc from 'fast-check';
import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { getChain } from '../../../src/core/index.ts';
import { createMessageHasher, hashOnElements } from '../../../src/exchange/signer/index.ts';
import {
  referenceCancelAllHash,
  referenceCancelHash,
  referenceIncreaseNonceHash,
  referenceLoginHash,
  referenceOrderHash,
  referenceWithdrawHash,
} from '../../../src/exchange/signer/reference.ts';
import {
  formatOrderBody,
  parseCancelAllBody,
  parseCancelBody,
  parseIncreaseNonceBody,
  parseOrderBody,
  parseWithdrawBody,
} from '../../../src/exchange/wire/requests.ts';
import { MAINNET, MAKER, felt, gasFeeBody, orderBodies, orderBody } from './fixtures.ts';

const hasher = createMessageHasher(MAINNET);
const sepolia = getChain('sepolia');

describe('order hash', () => {
  it('equals starknet.js getMessageHash on the everyday order', () => {
    const order = parseOrderBody(orderBody(), MAINNET);
    expect(hasher.order(order)).toBe(referenceOrderHash(order, MAINNET));
  });

  it('equals starknet.js getMessageHash on random orders (both books, any fee token)', () => {
    fc.assert(
      fc.property(orderBodies, (body) => {
        const order = parseOrderBody(body, MAINNET);
        expect(hasher.order(order)).toBe(referenceOrderHash(order, MAINNET));
      }),
      { numRuns: 12 },
    );
  });

  it('gives the same hash after memoised sub-structs are reused, and a different one per chain', () => {
    const order = parseOrderBody(orderBody(), MAINNET);
    const first = hasher.order(order);
    expect(hasher.order({ ...order })).toBe(first);
    const onSepolia = parseOrderBody(orderBody(), sepolia);
    expect(createMessageHasher(sepolia).order(onSepolia)).toBe(referenceOrderHash(onSepolia, sepolia));
    expect(createMessageHasher(sepolia).order(onSepolia)).not.toBe(first);
  });

  it('hashes a batch in lockstep exactly as one by one (mixed makers, memo hits and misses)', () => {
    fc.assert(
      fc.property(fc.array(orderBodies, { minLength: 0, maxLength: 6 }), (bodies) => {
        const orders = bodies.map((body) => parseOrderBody(body, MAINNET));
        expect(hasher.orders(orders)).toEqual(orders.map((order) => hasher.order(order)));
      }),
      { numRuns: 6 },
    );
    const order = parseOrderBody(orderBody(), MAINNET);
    const burst = Array.from({ length: 40 }, (_, i) => ({ ...order, salt: BigInt(i), price: order.price + BigInt(i % 3) }));
    const batch = hasher.orders(burst);
    expect(batch).toEqual(burst.map((o) => hasher.order(o)));
    expect(batch[7]).toBe(referenceOrderHash(burst[7]!, MAINNET));
  });

  it('survives a format → parse round trip unchanged', () => {
    fc.assert(
      fc.property(orderBodies, (body) => {
        const order = parseOrderBody(body, MAINNET);
        const again = parseOrderBody(JSON.parse(JSON.stringify(formatOrderBody(order))), MAINNET);
        expect(again).toEqual({ ...order, sign: { r: 0n, s: 0n }, routerSign: { r: 0n, s: 0n } });
      }),
      { numRuns: 50 },
    );
  });
});

describe('other request hashes equal starknet.js', () => {
  it('cancel', () => {
    fc.assert(
      fc.property(felt, felt, felt, (maker, orderHash, salt) => {
        const cancel = parseCancelBody({ maker: `0x${maker.toString(16)}`, order_hash: `0x${orderHash.toString(16)}`, salt: salt.toString(), sign_scheme: 'ecdsa curve' });
        expect(hasher.cancel(cancel)).toBe(referenceCancelHash(cancel, MAINNET));
      }),
      { numRuns: 5 },
    );
  });

  it('cancel-all, both books', () => {
    for (const eco of [true, false]) {
      const cancel = parseCancelAllBody(
        { maker: MAKER, salt: '0x99', sign_scheme: 'ecdsa curve', order_hash: 0, ticker: { base: 'STRK', quote: 'USDC', to_ecosystem_book: eco } },
        MAINNET,
      );
      expect(hasher.cancelAll(cancel)).toBe(referenceCancelAllHash(cancel, MAINNET));
    }
  });

  it('withdraw, gas in STRK and in USDC', () => {
    for (const feeToken of ['STRK', 'USDC']) {
      const withdraw = parseWithdrawBody(
        { maker: MAKER, token: 'USDC', amount: '10.5', salt: '7', receiver: MAKER, sign_scheme: 'ecdsa curve', gas_fee: gasFeeBody(feeToken) },
        MAINNET,
      );
      expect(hasher.withdraw(withdraw)).toBe(referenceWithdrawHash(withdraw, MAINNET));
    }
  });

  it('increase nonce (salt is sent but not hashed)', () => {
    const body = { maker: MAKER, new_nonce: 5, salt: '1', sign_scheme: 'ecdsa curve', gas_fee: gasFeeBody() };
    const request = parseIncreaseNonceBody(body, MAINNET);
    expect(hasher.increaseNonce(request)).toBe(referenceIncreaseNonceHash(request, MAINNET));
    expect(hasher.increaseNonce(parseIncreaseNonceBody({ ...body, salt: '2' }, MAINNET))).toBe(hasher.increaseNonce(request));
  });

  it('login message', () => {
    expect(hasher.login(BigInt(MAKER), 123_456_789_012n)).toBe(referenceLoginHash(BigInt(MAKER), 123_456_789_012n, MAINNET));
  });
});

describe('legacy Poseidon withdraw (WITHDRAW_HASH=poseidon)', () => {
  it('hashes the seed layout with Poseidon, u256 as (low, high)', () => {
    const poseidon = createMessageHasher(MAINNET, { withdrawHash: 'poseidon' });
    const withdraw = parseWithdrawBody(
      { maker: MAKER, token: 'ETH', amount: '1.5', salt: '3', receiver: '0x77', sign_scheme: '', gas_fee: gasFeeBody() },
      MAINNET,
    );
    const eth = MAINNET.tokens.get('ETH')!.address;
    const strk = MAINNET.tokens.get('STRK')!.address;
    const expected = hash.computePoseidonHashOnElements([
      MAKER, eth, 1_500_000_000_000_000_000n, 0n, 3n, 100n, strk, 40_000_000_000_000n, 0n, 10n ** 18n, 0n, 10n ** 18n, 0n, '0x77',
    ]);
    expect(poseidon.withdraw(withdraw)).toBe(BigInt(expected));
    expect(poseidon.withdraw(withdraw)).not.toBe(hasher.withdraw(withdraw));
  });

  it('chains with starknet.js computeHashOnElements semantics', () => {
    expect(hashOnElements([0xabcn, 0x123n, 0xabc123n])).toBe(0x148141e8f7db29d005a0187669a56f0790d7e8c2c5b2d780e4d8b9e436a5521n);
  });
});
