/**
 * The `gas_fee` block of signed requests, as pure integer arithmetic (SPEC §5, REFERENCE §5):
 * `max_gas_price` = gas price × multiplier (rounded up, so it never falls under the price we
 * read), and the conversion rate `[r0, r1]` ("r0 STRK are worth r1 of the fee token") taken from
 * a book mid or the venue's rate, skewed against us by a margin (r1 up: we accept paying a bit
 * more gas in the fee token rather than being refused with WRONG_CONVERSION_RATE when the book
 * moves between signing and checking).
 */
import { ceilDiv, pow10, type TokenInfo } from '../../core/index.ts';
import type { GasFee } from '../wire/requests.ts';

/** STRK decimals: `max_gas_price` and r0 are in them (REFERENCE §2.3). */
export const STRK_DECIMALS = 18;

/** `[r0, r1]` in base units: r0 STRK base units are worth r1 fee-token base units. */
export type ConversionRateUnits = readonly [bigint, bigint];

const PPM = 1_000_000n;

/** A positive decimal `number` (config) as parts per million, rounded up. */
function toPpm(value: number, what: string): bigint {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${what} must be a finite non-negative number, got ${value}`);
  return BigInt(Math.ceil(Math.round(value * 1e9) / 1e3));
}

/** `gasPrice × multiplier`, rounded up (fri per step). */
export function maxGasPrice(gasPrice: bigint, multiplier: number): bigint {
  return ceilDiv(gasPrice * toPpm(multiplier, 'GAS_PRICE_MULTIPLIER'), PPM);
}

/** The rate skewed against us by `marginBps` basis points: r1 × (1 + bps/10 000), rounded up. */
export function skewRate(rate: ConversionRateUnits, marginBps: number): ConversionRateUnits {
  const factorPpm = PPM + toPpm(marginBps / 10_000, 'CONVERSION_MARGIN_BPS');
  return [rate[0], ceilDiv(rate[1] * factorPpm, PPM)];
}

/** The rate of the gas token itself: 1 STRK is worth 1 STRK. */
export function identityRate(feeToken: TokenInfo): ConversionRateUnits {
  return [pow10(STRK_DECIMALS), pow10(feeToken.decimals)];
}

/**
 * The rate from the mid of a book between the fee token and STRK, either orientation:
 * - STRK/FEE (price = fee units per whole STRK): `[1 STRK, mid]`;
 * - FEE/STRK (price = STRK units per whole fee token): `[1 STRK, 10^feeDecimals · 10^18 / mid]`.
 * Returns undefined when the book is neither, or the mid is not positive.
 */
export function rateFromBookMid(feeToken: TokenInfo, book: { base: TokenInfo; quote: TokenInfo }, midPriceUnits: bigint): ConversionRateUnits | undefined {
  if (midPriceUnits <= 0n) return undefined;
  const oneStrk = pow10(STRK_DECIMALS);
  if (book.base.symbol === 'STRK' && book.quote.symbol === feeToken.symbol) return [oneStrk, midPriceUnits];
  if (book.base.symbol === feeToken.symbol && book.quote.symbol === 'STRK') {
    return [oneStrk, ceilDiv(pow10(feeToken.decimals) * oneStrk, midPriceUnits)];
  }
  return undefined;
}

/** Quote tokens per one STRK from a rate of the quote token (for the engine's gas pricing). */
export function quotePerStrk(rate: ConversionRateUnits, quoteToken: TokenInfo): number | undefined {
  if (rate[0] <= 0n) return undefined;
  return (Number(rate[1]) / Number(pow10(quoteToken.decimals))) / (Number(rate[0]) / Number(pow10(STRK_DECIMALS)));
}

/** A complete `gas_fee` block. */
export function buildGasFee(input: { steps: number; feeToken: TokenInfo; maxGasPrice: bigint; rate: ConversionRateUnits }): GasFee {
  return { gasPerAction: input.steps, feeToken: input.feeToken, maxGasPrice: input.maxGasPrice, conversionRate: [input.rate[0], input.rate[1]] };
}
