/**
 * What a venue needs to know about its pair before quoting, read from the venue's own answers:
 * the ticker rules (`/info/ticker_specifications`, names made honest, REFERENCE §5) and our
 * maker/taker pbips (`/user/user_info`), which every order must carry (SPEC §5: else
 * WRONG_PBIPS). Pure, so the checks are tested without a venue.
 */
import { assertValidRules, type TickerRules, type TokenInfo } from '../../core/index.ts';
import { ExchangeError, type TickerSpec, type UserInfo } from '../client/index.ts';

/** The pair's rules and our fees on it. */
export interface PairSetup {
  readonly rules: TickerRules;
  readonly makerPbips: number;
  readonly takerPbips: number;
}

/**
 * Finds the pair's ticker spec (on the chosen book) and our fees.
 * @throws ExchangeError `EXCHANGE_UNSUPPORTED_PAIR` naming what is missing;
 *   MmError `CORE_INVALID_RULES` for a spec with a zero tick or step.
 */
export function resolvePairSetup(input: {
  readonly specs: readonly TickerSpec[];
  readonly user: UserInfo;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
  readonly ecosystemBook: boolean;
}): PairSetup {
  const { base, quote, ecosystemBook } = input;
  const label = `${base.symbol}/${quote.symbol}`;
  const spec = input.specs.find((s) => s.base === base.symbol && s.quote === quote.symbol && s.isEcosystemBook === ecosystemBook);
  if (spec === undefined) {
    const books = input.specs.map((s) => `${s.base}/${s.quote}${s.isEcosystemBook ? '' : ' (router)'}`).join(', ');
    throw new ExchangeError('EXCHANGE_UNSUPPORTED_PAIR', `${label} (${ecosystemBook ? 'ecosystem' : 'router'} book) is not listed; the venue lists: ${books || 'nothing'}`, {
      endpoint: 'GET /info/ticker_specifications',
    });
  }
  const fees = input.user.fees.find((f) => f.base === base.symbol && f.quote === quote.symbol);
  if (fees === undefined) {
    throw new ExchangeError('EXCHANGE_UNSUPPORTED_PAIR', `no fees for ${label} in our account's fee list`, { endpoint: 'GET /user/user_info' });
  }
  const rules = assertValidRules({
    base: base.symbol,
    quote: quote.symbol,
    isEcosystemBook: spec.isEcosystemBook,
    priceTick: spec.priceTick,
    qtyStep: spec.qtyStep,
    minQty: spec.minQty,
    baseDecimals: base.decimals,
    quoteDecimals: quote.decimals,
  });
  return { rules, makerPbips: fees.makerPbips, takerPbips: fees.takerPbips };
}
