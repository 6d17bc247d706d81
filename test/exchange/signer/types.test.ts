import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { encodeType, hashOnElements, pedersen, typeHash } from '../../../src/exchange/signer/index.ts';
import { starknetKeccak } from '../../../src/exchange/signer/types.ts';
import { shortStringToFelt } from '../../../src/exchange/wire/fields.ts';

// The contract's own constants (REFERENCE §2.4 "Type hashes").
const CONTRACT_TYPE_HASHES: Record<string, string> = {
  StarkNetDomain: '0x1bfc207425a47a5dfa1a50a4f5241203f50624ca5fdf5e18755765416b8e288',
  u256: '0x2ee86241508f9ca7043fb572033e45c445012a8dbb2b929391d37fc44fbfceb',
  GasFee: '0x1a39ca962d62dde02988f6e3c3d248a70555ce48d84681fc67115e8c25f5927',
  FixedFee: '0x8c6a6c4fc175ee3ac9212e86d8d6dd1326181dc94ac44a14f400b3f37e5a3f',
  OrderFee: '0x21925aa06e30bfc99befd32e651c302c5932f65dcec93f3d0ff7f42f6cbeab6',
  OrderFlags: '0xf4acda9e8bbf75928080965997bf8f485abcc2113a9d8b08fc2a30249988e3',
  Quantity: '0x86a677a4608ab4c497f6157ac95210589a82883be0665f34e7cbf80c65bd5d',
  Constraints: '0x15ad6b6e2857a7b2a494f79ad1051d9be921c5b5a8af916675b7a4b5fece5e8',
  Order: '0x2d599dbc31839a910d83a4b0e2ec56ad26117160148a709601e09eea058c9a3',
  Withdraw: '0x2bea416e56c3b164d794221f7be94992dba648f7df4b3cdc2c9e9ee9131dc68',
  OnchainCancelAll: '0x1419e39e06e7e76ddc32635d95dee09599a35d2c8687fc87e22c6e6a803f578',
  CancelOrder: '0x2b880d58999a8a3149b24bd77fa766a71b488769d7a4fa27203dc891a579dbd',
  CancelAllOrders: '0x3a3a719ffc09ed45197031f548690a64a1069b2f87398d500c28d759213e986',
  Message: '0xa2417e52eccf4d194f7fa189caa63f7b44b850311570b702bea0e06a5e330f',
};

describe('SNIP-12 rev 0 type hashes', () => {
  it.each(Object.entries(CONTRACT_TYPE_HASHES))('%s equals the contract constant', (type, expected) => {
    expect(typeHash(type)).toBe(BigInt(expected));
  });

  it('computes starknet_keccak exactly as starknet.js does', () => {
    for (const text of ['', 'a', 'get_fee_recipient', 'StarkNetDomain(name:felt,version:felt,chainId:felt)', encodeType('Order'), 'x'.repeat(300)]) {
      expect(starknetKeccak(text)).toBe(hash.starknetKeccak(text));
    }
  });

  it('encodes dependencies sorted by name after the primary type', () => {
    expect(encodeType('OrderFee')).toBe(
      'OrderFee(trade_fee:FixedFee,router_fee:FixedFee,integrator_fee:FixedFee,apply_to_receipt_amount:bool,gas_fee:GasFee)' +
        'FixedFee(recipient:felt,maker_pbips:felt,taker_pbips:felt)' +
        'GasFee(gas_per_action:felt,fee_token:felt,max_gas_price:u256,r0:u256,r1:u256)u256(low:felt,high:felt)',
    );
  });
});

describe('the rev 0 "Mail" vector (SIGNING-NOTES §2.2)', () => {
  const types = {
    StarkNetDomain: [['name', 'felt'], ['version', 'felt'], ['chainId', 'felt']],
    Person: [['name', 'felt'], ['wallet', 'felt']],
    Mail: [['from', 'Person'], ['to', 'Person'], ['contents', 'felt']],
  } as const;
  const typeHashOf = (name: keyof typeof types): bigint => hash.starknetKeccak(encodeType(name, types));
  const person = (name: string, wallet: string): bigint => hashOnElements([typeHashOf('Person'), shortStringToFelt(name), BigInt(wallet)]);
  const cow = '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826';
  const bob = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB';

  it('hashes the domain and the whole message like every Starknet SDK', () => {
    const domain = hashOnElements([typeHashOf('StarkNetDomain'), shortStringToFelt('StarkNet Mail'), 1n, 1n]);
    expect(typeHashOf('StarkNetDomain')).toBe(0x1bfc207425a47a5dfa1a50a4f5241203f50624ca5fdf5e18755765416b8e288n);
    expect(domain).toBe(0x54833b121883a3e3aebff48ec08a962f5742e5f7b973469c1f8f4f55d470b07n);
    const mail = hashOnElements([typeHashOf('Mail'), person('Cow', cow), person('Bob', bob), shortStringToFelt('Hello, Bob!')]);
    const message = hashOnElements([shortStringToFelt('StarkNet Message'), domain, BigInt(cow), mail]);
    expect(message).toBe(0x6fcff244f63e38b9d88b9e3378d44757710d1b244282b435cb472053c8d78d0n);
  });
});

describe('fast Pedersen', () => {
  it('matches the library on edge values', () => {
    const p = 2n ** 251n + 17n * 2n ** 192n + 1n;
    const cases: [bigint, bigint][] = [[0n, 0n], [1n, 2n], [p - 1n, p - 1n], [2n ** 248n, 2n ** 248n - 1n], [7n << 248n, 4095n]];
    for (const [a, b] of cases) expect(pedersen(a, b)).toBe(BigInt(hash.computePedersenHash(a, b)));
  });

  it('refuses values outside the field instead of hashing them', () => {
    expect(() => pedersen(2n ** 252n, 0n)).toThrow(RangeError);
    expect(() => pedersen(0n, -1n)).toThrow(RangeError);
  });
});
