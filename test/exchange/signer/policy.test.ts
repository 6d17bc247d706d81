import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Secret, createLogger, getToken, hasErrorCode, type Logger } from '../../../src/core/index.ts';
import {
  Signer,
  SigningAudit,
  SigningPolicy,
  SigningPool,
  SigningRefusedError,
  verifySignature,
  type RefusalKind,
  type SigningPolicySpec,
} from '../../../src/exchange/signer/index.ts';
import { gasFeeBody, MAINNET, MAKER, orderBody } from './fixtures.ts';
import { parseOrderBody, parseWithdrawBody, readGasFee, type OrderRequest } from '../../../src/exchange/wire/requests.ts';
import { FieldReader } from '../../../src/exchange/wire/fields.ts';

const KEY = new Secret('0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc');
const ACCOUNT = BigInt(MAKER);
const FRIEND = 0xf00dn;
const USDC = getToken(MAINNET, 'USDC');
const ETH = getToken(MAINNET, 'ETH');
const STRK = getToken(MAINNET, 'STRK');

/** ETH/USDC with a 1,000 USDC order limit, STRK/USDC without one; withdrawals only to FRIEND. */
const SPEC: SigningPolicySpec = {
  chain: 'mainnet',
  account: ACCOUNT,
  pairs: [
    { base: 'ETH', quote: 'USDC', maxOrderNotionalUnits: 1_000n * 10n ** 6n },
    { base: 'STRK', quote: 'USDC' },
  ],
  withdrawReceivers: [FRIEND],
};

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ destination }), lines };
}

function setup(spec: SigningPolicySpec = SPEC) {
  const { logger, lines } = capture();
  const audit = new SigningAudit(logger);
  const signer = new Signer({ privateKey: KEY, account: ACCOUNT, chain: MAINNET, policy: new SigningPolicy(spec, audit) });
  return { audit, signer, lines };
}

/** An order of `qty` ETH at `price` USDC from the fixture body, with overrides of the body. */
function order(overrides: Record<string, unknown> = {}): OrderRequest {
  return parseOrderBody(orderBody(overrides), MAINNET);
}

function refusalOf(sign: () => unknown): SigningRefusedError {
  try {
    sign();
  } catch (error) {
    if (error instanceof SigningRefusedError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const withdraw = (receiver: bigint) =>
  parseWithdrawBody({ maker: MAKER, token: 'USDC', amount: '10', salt: '1', receiver: `0x${receiver.toString(16)}`, gas_fee: gasFeeBody(), sign_scheme: 'ecdsa curve' }, MAINNET);
const gasFee = () => readGasFee(FieldReader.root(gasFeeBody()), MAINNET);

function expectRefused(setupResult: ReturnType<typeof setup>, kind: RefusalKind, sign: () => unknown): SigningRefusedError {
  const refusal = refusalOf(sign);
  expect(refusal.kind).toBe(kind);
  expect(hasErrorCode(refusal, 'SIGNER_REFUSED')).toBe(true);
  expect(setupResult.audit.counts().get(kind)).toBe(1);
  return refusal;
}

describe('signing policy: what a market maker signs', () => {
  it('signs orders of an allowed pair within the limit, cancels, cancel-all, nonce increases, the login and an allowed withdrawal', () => {
    const s = setup();
    const signed = s.signer.signOrder(order());
    expect(verifySignature(signed.hash, signed.request.sign!, s.signer.starkKey)).toBe(true);
    expect(s.signer.signOrder(order({ ticker: ['STRK', 'USDC'], qty: { base_qty: '1000000', quote_qty: '0' }, price: '0.5' })).request.sign).toBeDefined();
    s.signer.signCancel({ maker: ACCOUNT, orderHash: signed.hash, salt: 2n, signScheme: 'ecdsa curve' });
    s.signer.signCancelAll({ maker: ACCOUNT, salt: 3n, base: ETH, quote: USDC, toEcosystemBook: true, signScheme: 'ecdsa curve' });
    s.signer.signIncreaseNonce({ maker: ACCOUNT, newNonce: 2, salt: 4n, gasFee: gasFee(), signScheme: 'ecdsa curve' });
    s.signer.signLogin(123n);
    s.signer.signWithdraw(withdraw(FRIEND));
    expect([...s.audit.counts().values()].every((count) => count === 0)).toBe(true);
  });

  it('allows an order of exactly the notional limit (1,000 USDC) and refuses one base unit more', () => {
    const s = setup();
    s.signer.signOrder(order({ price: '2000', qty: { base_qty: '0.5', quote_qty: '0' } }));
    expectRefused(s, 'notional', () => s.signer.signOrder(order({ price: '2000', qty: { base_qty: '0.500000000000000001', quote_qty: '0' } })));
  });

  it('refuses an order for another account (kind account)', () => {
    const s = setup();
    expectRefused(s, 'account', () => s.signer.signOrder(order({ maker: '0x1234' })));
  });

  it('refuses an order for a pair not on the list (kind pair)', () => {
    const s = setup();
    const refusal = expectRefused(s, 'pair', () => s.signer.signOrder(order({ ticker: ['ETH', 'USDT'] })));
    expect(refusal.message).toContain('allowed: ETH/USDC, STRK/USDC');
  });

  it('judges the pair by the token addresses it hashes, not by the symbol a caller wrote', () => {
    const s = setup();
    s.signer.signOrder({ ...order(), base: { ...ETH, symbol: 'WHATEVER' } });
    const labelledEth = { ...order(), base: { ...getToken(MAINNET, 'DOG'), symbol: 'ETH', decimals: 18 } };
    expectRefused(s, 'pair', () => s.signer.signOrder(labelledEth));
  });

  it('refuses an order over the pair\'s notional limit (kind notional)', () => {
    const s = setup();
    const refusal = expectRefused(s, 'notional', () => s.signer.signOrder(order({ price: '3000', qty: { base_qty: '1', quote_qty: '0' } })));
    expect(refusal.message).toContain('1 ETH at 3000 is over the 1000 USDC notional limit');
  });

  it('refuses a market order with neither a price nor a quote quantity when a limit is set', () => {
    const s = setup();
    expectRefused(s, 'notional', () => s.signer.signOrder({ ...order(), price: 0n, quoteQty: 0n }));
  });

  it('refuses an order paying a router or integrator fee (kind fee)', () => {
    const s = setup();
    const body = orderBody();
    const fee = { ...(body['fee'] as Record<string, unknown>), integrator_fee: { recipient: '0xbad', maker_pbips: 0, taker_pbips: 5000 } };
    expectRefused(s, 'fee', () => s.signer.signOrder(order({ fee })));
  });

  it('refuses an order paying its trade fee to anyone but the exchange (kind fee)', () => {
    const s = setup();
    const good = order();
    expectRefused(s, 'fee', () => s.signer.signOrder({ ...good, fee: { ...good.fee, tradeFee: { ...good.fee.tradeFee, recipient: 0xbadn } } }));
  });

  it('refuses a cancel-all for a pair not on the list (kind pair)', () => {
    const s = setup();
    expectRefused(s, 'pair', () => s.signer.signCancelAll({ maker: ACCOUNT, salt: 3n, base: ETH, quote: STRK, toEcosystemBook: true, signScheme: 'ecdsa curve' }));
  });

  it('refuses a cancel for another account (kind account)', () => {
    const s = setup();
    expectRefused(s, 'account', () => s.signer.signCancel({ maker: ACCOUNT + 1n, orderHash: 1n, salt: 2n, signScheme: 'ecdsa curve' }));
  });

  it('refuses a nonce increase for another account (kind account)', () => {
    const s = setup();
    expectRefused(s, 'account', () => s.signer.signIncreaseNonce({ maker: 7n, newNonce: 2, salt: 4n, gasFee: gasFee(), signScheme: 'ecdsa curve' }));
  });

  it('refuses a withdrawal to a receiver not on WITHDRAW_ALLOWED_RECEIVERS (kind withdraw)', () => {
    const s = setup();
    expectRefused(s, 'withdraw', () => s.signer.signWithdraw(withdraw(0xbadn)));
  });

  it('refuses every withdrawal by default (no receivers listed), even to the account itself', () => {
    const s = setup({ ...SPEC, withdrawReceivers: [] });
    const refusal = expectRefused(s, 'withdraw', () => s.signer.signWithdraw(withdraw(ACCOUNT)));
    expect(refusal.message).toContain('none (WITHDRAW_ALLOWED_RECEIVERS is empty)');
  });

  it('logs each refusal as a security event, without a key', async () => {
    const s = setup();
    refusalOf(() => s.signer.signWithdraw(withdraw(0xbadn)));
    await new Promise((resolve) => setImmediate(resolve));
    const line = JSON.parse(s.lines.join('')) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 50, event: 'security', refusal: 'withdraw', request: 'withdraw', msg: 'signing refused by the signing policy' });
    expect(s.lines.join('')).not.toContain(KEY.reveal().slice(2, 20));
  });

  it('tells listeners (the metrics counter) about each refusal', () => {
    const s = setup();
    const seen: string[] = [];
    s.audit.onRefused((kind, request) => seen.push(`${kind}/${request}`));
    refusalOf(() => s.signer.signOrder(order({ maker: '0x1234' })));
    expect(seen).toEqual(['account/order']);
  });

  it('refuses a whole batch when one order breaks the policy, signing none of it', () => {
    const s = setup();
    const refusal = refusalOf(() => s.signer.signOrders([order(), order({ ticker: ['ETH', 'USDT'] })]));
    expect(refusal.kind).toBe('pair');
  });

  it('will not pair a policy with a signer of another account or chain', () => {
    expect(() => new Signer({ privateKey: KEY, account: ACCOUNT + 1n, chain: MAINNET, policy: new SigningPolicy(SPEC) })).toThrow(/signing policy is for account/);
  });
});

describe('signing pool under a policy', () => {
  let pool: SigningPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('refuses (and counts) a batch before any worker sees it, and says which orders it would sign', async () => {
    const audit = new SigningAudit();
    pool = new SigningPool({ privateKey: KEY, account: ACCOUNT, chain: MAINNET, size: 1, policy: new SigningPolicy(SPEC, audit) });
    await pool.ready();
    const signed = await pool.signOrders([order(), order({ salt: '99' })]);
    expect(signed).toHaveLength(2);
    expect(pool.allows(order())).toBe(true);
    expect(pool.allows(order({ price: '3000', qty: { base_qty: '1', quote_qty: '0' } }))).toBe(false);
    expect(audit.counts().get('notional')).toBe(0);
    await expect(pool.signOrders([order(), order({ price: '3000', qty: { base_qty: '1', quote_qty: '0' } })])).rejects.toMatchObject({ code: 'SIGNER_REFUSED', kind: 'notional' });
    expect(audit.counts().get('notional')).toBe(1);
  });
});
