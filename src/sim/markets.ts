/**
 * The pairs the embedded exchange lists and their ticker rules (served by
 * `/info/ticker_specifications`, REFERENCE §1.2 #10 and §5). Each pair has two books: the
 * ecosystem book and the router book (SPEC §5 "per book"), with the same rules.
 *
 * Ticks and lots are chosen to look like the venue's published examples (REFERENCE §5: ETH/USDT
 * tick 0.1 USDT in SW, 0.001 ETH minimum in the JS docs) and to leave room for a bot to quote
 * inside the synthetic makers' spread.
 */
import { getToken, pow10, type ChainInfo, type TokenInfo } from '../core/index.ts';

/** One listed book: pair, book kind and rules in base units. */
export interface Market {
  /** "ETH-USDC/eco" or "ETH-USDC/router": the key books and subscriptions use. */
  readonly key: string;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
  readonly isEcosystemBook: boolean;
  /** Price tick in quote base units (`rawPriceIncrement`). */
  readonly priceTick: bigint;
  /** Base quantity step in base units (`rawQuoteQtyIncrement`: the venue's name is misleading). */
  readonly qtyStep: bigint;
  /** Minimum base quantity in base units (`rawMinQuoteQty`). */
  readonly minQty: bigint;
  /** 10^base decimals: quote = price × qty / baseScale. */
  readonly baseScale: bigint;
}

/** Rules of one pair as text in whole-token decimals; turned into base units per chain. */
interface PairRule {
  readonly base: string;
  readonly quote: string;
  /** Price tick as a power of ten of the quote token (e.g. -2 = 0.01). */
  readonly tickExp: number;
  readonly stepExp: number;
  readonly minExp: number;
}

/** SPEC brief: ETH/USDC, ETH/USDT, STRK/USDC, STRK/USDT, ETH/STRK, USDC/USDT. */
const PAIR_RULES: readonly PairRule[] = [
  { base: 'ETH', quote: 'USDC', tickExp: -2, stepExp: -4, minExp: -3 },
  { base: 'ETH', quote: 'USDT', tickExp: -2, stepExp: -4, minExp: -3 },
  { base: 'STRK', quote: 'USDC', tickExp: -4, stepExp: -1, minExp: 0 },
  { base: 'STRK', quote: 'USDT', tickExp: -4, stepExp: -1, minExp: 0 },
  { base: 'ETH', quote: 'STRK', tickExp: -2, stepExp: -4, minExp: -3 },
  { base: 'USDC', quote: 'USDT', tickExp: -4, stepExp: -2, minExp: 0 },
];

function unitsOf(token: TokenInfo, exponent: number): bigint {
  return pow10(token.decimals + exponent);
}

/** The key of a pair's book. */
export function marketKey(base: string, quote: string, isEcosystemBook: boolean): string {
  return `${base}-${quote}/${isEcosystemBook ? 'eco' : 'router'}`;
}

/** Every listed book on this chain: each pair twice (ecosystem and router). */
export function listMarkets(chain: ChainInfo): Market[] {
  const markets: Market[] = [];
  for (const rule of PAIR_RULES) {
    const base = getToken(chain, rule.base);
    const quote = getToken(chain, rule.quote);
    for (const isEcosystemBook of [true, false]) {
      markets.push({
        key: marketKey(base.symbol, quote.symbol, isEcosystemBook),
        base,
        quote,
        isEcosystemBook,
        priceTick: unitsOf(quote, rule.tickExp),
        qtyStep: unitsOf(base, rule.stepExp),
        minQty: unitsOf(base, rule.minExp),
        baseScale: pow10(base.decimals),
      });
    }
  }
  return markets;
}

/** The venue's pair label in REST bodies: "ETH-USDC" (REFERENCE §1.2 #4). */
export function pairLabelOf(market: Market): string {
  return `${market.base.symbol}-${market.quote.symbol}`;
}
