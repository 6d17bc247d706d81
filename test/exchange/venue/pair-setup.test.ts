import { describe, expect, it } from 'vitest';
import { getChain, getToken } from '../../../src/core/index.ts';
import { findFeeBook, resolvePairSetup } from '../../../src/exchange/venue/index.ts';
import type { TickerSpec, UserInfo } from '../../../src/exchange/client/index.ts';

const chain = getChain('mainnet');
const [ETH, USDC, STRK] = ['ETH', 'USDC', 'STRK'].map((symbol) => getToken(chain, symbol)) as [ReturnType<typeof getToken>, ReturnType<typeof getToken>, ReturnType<typeof getToken>];
const spec = (base: string, quote: string, isEcosystemBook = true): TickerSpec => ({ base, quote, isEcosystemBook, priceTick: 100n, minQty: 10n, qtyStep: 5n });
const user: UserInfo = { nonce: 1, balances: new Map(), fees: [{ base: 'ETH', quote: 'USDC', makerPbips: 200, takerPbips: 1000 }], unknownTokens: [] };

describe('pair setup', () => {
  it('takes the rules of the chosen book and our fees', () => {
    const setup = resolvePairSetup({ specs: [spec('ETH', 'USDC', false), spec('ETH', 'USDC')], user, base: ETH, quote: USDC, ecosystemBook: true });
    expect(setup).toEqual({
      rules: { base: 'ETH', quote: 'USDC', isEcosystemBook: true, priceTick: 100n, qtyStep: 5n, minQty: 10n, baseDecimals: 18, quoteDecimals: 6 },
      makerPbips: 200,
      takerPbips: 1000,
    });
  });

  it('names the books the venue lists when ours is missing', () => {
    expect(() => resolvePairSetup({ specs: [spec('ETH', 'USDC', false)], user, base: ETH, quote: USDC, ecosystemBook: true })).toThrow(/ETH\/USDC \(router\)/);
  });

  it('refuses a pair without fees for our account', () => {
    expect(() => resolvePairSetup({ specs: [spec('STRK', 'USDC')], user, base: STRK, quote: USDC, ecosystemBook: true })).toThrow(expect.objectContaining({ code: 'EXCHANGE_UNSUPPORTED_PAIR' }));
  });

  it('refuses rules with a zero tick', () => {
    expect(() => resolvePairSetup({ specs: [{ ...spec('ETH', 'USDC'), priceTick: 0n }], user, base: ETH, quote: USDC, ecosystemBook: true })).toThrow(expect.objectContaining({ code: 'CORE_INVALID_RULES' }));
  });

  it('finds the fee-token/STRK book either way round, preferring the ecosystem book', () => {
    expect(findFeeBook(chain, STRK, [spec('STRK', 'USDC')])).toBeUndefined();
    expect(findFeeBook(chain, USDC, [spec('STRK', 'USDC', false), spec('STRK', 'USDC')])).toMatchObject({ pair: { base: 'STRK', quote: 'USDC' }, ecosystem: true });
    expect(findFeeBook(chain, ETH, [spec('ETH', 'STRK', false)])).toMatchObject({ pair: { base: 'ETH', quote: 'STRK' }, ecosystem: false, base: ETH, quote: STRK });
    expect(findFeeBook(chain, USDC, [spec('ETH', 'USDC')])).toBeUndefined();
  });
});
