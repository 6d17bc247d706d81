import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimRejection } from '../../src/sim/errors.ts';
import { ALICE, BOB, engineHarness, nonceRequest, order, withdrawRequest } from './fixtures.ts';

const PAIRS = [
  ['ETH', 'USDC', ['2990', '3000', '3010']],
  ['STRK', 'USDC', ['0.4999', '0.5', '0.5001']],
  ['ETH', 'STRK', ['5990', '6000', '6010']],
] as const;

const action = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
    kind: fc.constant('order' as const),
    maker: fc.constantFrom(ALICE, BOB),
    pair: fc.integer({ min: 0, max: PAIRS.length - 1 }),
    priceIndex: fc.integer({ min: 0, max: 2 }),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    lots: fc.integer({ min: 1, max: 40 }),
    mode: fc.constantFrom('post' as const, 'limit' as const, 'market' as const, 'full' as const),
    stp: fc.integer({ min: 0, max: 3 }),
    feeOnReceipt: fc.boolean(),
    feeToken: fc.constantFrom('STRK', 'USDC'),
  }),
  },
  fc.record({ kind: fc.constant('cancel' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('cancel-all' as const), maker: fc.constantFrom(ALICE, BOB), pair: fc.integer({ min: 0, max: PAIRS.length - 1 }) }),
  fc.record({ kind: fc.constant('withdraw' as const), maker: fc.constantFrom(ALICE, BOB), token: fc.constantFrom('ETH', 'USDC', 'STRK'), amount: fc.constantFrom('0.5', '3', '50') }),
  fc.record({ kind: fc.constant('nonce' as const), maker: fc.constantFrom(ALICE, BOB) }),
  fc.record({ kind: fc.constant('time' as const), ms: fc.integer({ min: 1, max: 5_000 }) }),
  fc.record({ kind: fc.constant('gas' as const), percent: fc.integer({ min: 50, max: 200 }) }),
);

describe('conservation of money', () => {
  it('keeps Σ accounts + fees + gas + withdrawn equal to deposits for every token after every step', async () => {
    let trades = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 10, maxLength: 60, size: 'max' }), async (actions) => {
        const h = engineHarness();
        const placed: bigint[] = [];
        const nonces = new Map<bigint, number>();
        const check = (): void => {
          for (const token of h.ledger.tokens()) {
            const t = h.ledger.totals(token);
            expect(t.accounts + t.fees + t.gas + t.withdrawn).toBe(t.deposited);
            for (const account of [ALICE, BOB]) {
              const holding = h.ledger.get(account, token);
              expect(holding.free >= 0n && holding.locked >= 0n).toBe(true);
            }
          }
        };
        for (const step of actions) {
          try {
            if (step.kind === 'order') {
              const [base, quote, prices] = PAIRS[step.pair] as (typeof PAIRS)[number];
              const lot = base === 'STRK' ? 1 : 0.001;
              const qty = (step.lots * lot).toFixed(base === 'STRK' ? 0 : 3);
              const market = step.mode === 'market';
              const rate = step.feeToken === 'USDC' ? ([10n ** 18n, 500_000n] as const) : undefined;
              const made = h.place(
                order({
                  maker: step.maker,
                  base,
                  quote,
                  side: step.side,
                  price: prices[step.priceIndex] as string,
                  qty,
                  market,
                  postOnly: step.mode === 'post',
                  fullFillOnly: step.mode === 'full',
                  stp: step.stp,
                  feeOnReceipt: step.feeOnReceipt,
                  feeToken: step.feeToken,
                  nonce: nonces.get(step.maker) ?? 0,
                  ...(rate === undefined ? {} : { conversionRate: rate }),
                }),
              );
              placed.push(made.hash);
            } else if (step.kind === 'cancel' && placed.length > 0) {
              const target = h.engine.order(placed[step.index % placed.length] as bigint);
              if (target !== undefined) h.engine.acceptCancel({ maker: target.account, orderHash: target.hash, salt: h.nextHash(), signScheme: 'ecdsa curve' }, h.nextHash());
            } else if (step.kind === 'cancel-all') {
              const [base, quote] = PAIRS[step.pair] as (typeof PAIRS)[number];
              const market = h.engine.market(base, quote, true);
              if (market !== undefined) {
                h.engine.acceptCancelAll({ maker: step.maker, salt: h.nextHash(), base: market.base, quote: market.quote, toEcosystemBook: true, signScheme: 'ecdsa curve' }, h.nextHash());
              }
            } else if (step.kind === 'withdraw') {
              h.engine.acceptWithdraw(withdrawRequest(step.maker, step.token, step.amount), h.nextHash());
            } else if (step.kind === 'nonce') {
              const next = (nonces.get(step.maker) ?? 0) + 1;
              h.engine.acceptIncreaseNonce(nonceRequest(step.maker, next), h.nextHash());
              nonces.set(step.maker, next);
            } else if (step.kind === 'time') {
              h.clock.advance(step.ms);
              h.engine.sweepExpired();
            } else if (step.kind === 'gas') {
              h.setGasPrice((h.settings.gasPriceFri * BigInt(step.percent)) / 100n);
            }
          } catch (error) {
            if (!(error instanceof SimRejection)) throw error;
          }
          await h.settle();
          check();
        }
        // Everything ends: cancel what rests, let nonces apply, and no lock may be left over.
        h.clock.advance(10 * 3_600_000);
        h.engine.sweepExpired();
        await h.settle();
        check();
        for (const account of [ALICE, BOB]) for (const token of h.ledger.tokens()) expect(h.ledger.get(account, token).locked).toBe(0n);
        trades += h.recorder.trades.length;
      }),
      { numRuns: 100, seed: 20260101 },
    );
    // The sequences must really trade, or the property says little.
    expect(trades).toBeGreaterThan(100);
  });
});
