import { describe, expect, it } from 'vitest';
import { createSilentLogger, getChain, getToken, ManualClock, type GasQuote } from '../../../src/core/index.ts';
import { GasTracker, identityRate, maxGasPrice, quotePerStrk, rateFromBookMid, skewRate } from '../../../src/exchange/gas/index.ts';

const chain = getChain('mainnet');
const STRK = getToken(chain, 'STRK');
const USDC = getToken(chain, 'USDC');
const ETH = getToken(chain, 'ETH');
const E18 = 10n ** 18n;

describe('gas fee arithmetic', () => {
  it('multiplies the gas price and rounds up', () => {
    expect(maxGasPrice(1_000n, 1.25)).toBe(1_250n);
    expect(maxGasPrice(3n, 1.25)).toBe(4n);
    expect(maxGasPrice(1_234_456_788_907_878_798n, 2)).toBe(2_468_913_577_815_757_596n);
  });

  it('skews r1 against us by the margin, rounding up', () => {
    expect(skewRate([E18, 550_000n], 50)).toEqual([E18, 552_750n]);
    expect(skewRate([E18, 3n], 1)).toEqual([E18, 4n]);
    expect(skewRate([E18, 550_000n], 0)).toEqual([E18, 550_000n]);
  });

  it('prices STRK in itself as one to one', () => {
    expect(identityRate(STRK)).toEqual([E18, E18]);
  });

  it('reads the rate from a STRK/fee book and from a fee/STRK book', () => {
    expect(rateFromBookMid(USDC, { base: STRK, quote: USDC }, 550_000n)).toEqual([E18, 550_000n]);
    // ETH/STRK at 2000 STRK per ETH: one STRK is worth 1/2000 ETH = 5e14 wei.
    expect(rateFromBookMid(ETH, { base: ETH, quote: STRK }, 2000n * E18)).toEqual([E18, 5n * 10n ** 14n]);
    expect(rateFromBookMid(USDC, { base: ETH, quote: USDC }, 1n)).toBeUndefined();
    expect(rateFromBookMid(USDC, { base: STRK, quote: USDC }, 0n)).toBeUndefined();
  });

  it('turns a quote-token rate into quote per STRK', () => {
    expect(quotePerStrk([E18, 550_000n], USDC)).toBeCloseTo(0.55, 12);
  });
});

describe('gas tracker', () => {
  function tracker(options: { feeToken?: typeof USDC; failGas?: boolean } = {}) {
    const clock = new ManualClock(1_000_000);
    const calls = { gas: 0, rate: [] as string[] };
    let gasPrice = 1_000n;
    const quotes: GasQuote[] = [];
    const gas = new GasTracker({
      source: {
        gasPrice: async () => {
          calls.gas++;
          if (options.failGas === true && calls.gas > 1) throw new Error('503');
          return gasPrice;
        },
        conversionRate: async (token) => {
          calls.rate.push(token);
          return [E18, 500_000n];
        },
      },
      clock,
      logger: createSilentLogger(),
      feeToken: options.feeToken ?? STRK,
      quoteToken: USDC,
      multiplier: 1.25,
      refreshMs: 30_000,
      conversionMarginBps: 100,
      onQuote: (quote) => quotes.push(quote),
    });
    return { gas, clock, calls, quotes, setGas: (value: bigint) => (gasPrice = value) };
  }

  it('builds a priced gas fee in STRK with the identity rate', async () => {
    const { gas, quotes } = tracker();
    await gas.start();
    expect(gas.gasFee(150)).toEqual({ gasPerAction: 150, feeToken: STRK, maxGasPrice: 1_250n, conversionRate: [E18, E18] });
    expect(quotes).toEqual([{ gasPriceUnits: 1_000n, quotePerStrk: 0.5, timeMs: 1_000_000 }]);
  });

  it('refreshes on its timer, and before a request when the timer has fallen behind', async () => {
    const { gas, clock, calls, setGas } = tracker();
    await gas.start();
    setGas(2_000n);
    await clock.advanceAsync(30_000);
    expect(calls.gas).toBe(2);
    expect(gas.gasFee(1).maxGasPrice).toBe(2_500n);
    gas.stop();
    clock.advance(30_000);
    expect(gas.isStale()).toBe(false);
    clock.advance(15_000);
    expect(gas.isStale()).toBe(true);
    await gas.ensureFresh();
    expect(calls.gas).toBe(3);
    await gas.ensureFresh();
    expect(calls.gas).toBe(3);
  });

  it('keeps the last gas price when a refresh fails', async () => {
    const { gas } = tracker({ failGas: true });
    await gas.start();
    await gas.refresh();
    expect(gas.quote()?.gasPriceUnits).toBe(1_000n);
  });

  it('prefers a fresh book rate over the venue rate for a non-STRK fee token, skewed', async () => {
    const { gas, clock, calls } = tracker({ feeToken: USDC });
    await gas.start();
    expect(calls.rate).toContain('USDC');
    expect(gas.feeRate()).toEqual([E18, 505_000n]);
    gas.onFeeBookRate([E18, 600_000n]);
    expect(gas.feeRate()).toEqual([E18, 606_000n]);
    gas.stop();
    clock.advance(60_000);
    expect(gas.feeRate()).toEqual([E18, 505_000n]);
  });
});
