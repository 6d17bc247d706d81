/**
 * Current gas pricing for signed requests (SPEC §5): the latest `/gas/price`, refreshed on a
 * timer and again before a gas-bearing request when it is older than the refresh period; the
 * fee-token conversion rate from the fee-token/STRK book mid when one is fed in and fresh,
 * otherwise from `/info/conversion_rate`; and the engine's {@link GasQuote} (quote tokens per
 * STRK, to price gas in quote units).
 *
 * Resting post-only orders: REFERENCE §5 says the JS SDK signs them with `max_gas_price` 0 since
 * makers never pay gas, but SPEC §5 (which wins) has the venue check `max_gas_price ≥ current gas
 * price` for any gas-bearing action and does not exempt orders. We sign every order with the
 * priced gas fee: a post-only order never takes, so it can never be charged, and a venue that
 * checks every order accepts it. The cost is re-signing pre-signed orders when gas moves.
 */
import type { Clock, GasQuote, Logger, Timer, TokenInfo } from '../../core/index.ts';
import type { GasFee } from '../wire/requests.ts';
import type { ConversionRate } from '../client/responses.ts';
import { buildGasFee, identityRate, maxGasPrice, quotePerStrk, skewRate, type ConversionRateUnits } from './gas-fee.ts';

/** Where prices come from (the REST client satisfies it). */
export interface GasSource {
  gasPrice(): Promise<bigint>;
  /** Undefined when the venue has no rate now (it answered `[]`). */
  conversionRate(token: string): Promise<ConversionRate | undefined>;
}

/** Settings and collaborators of a {@link GasTracker}. */
export interface GasTrackerOptions {
  readonly source: GasSource;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Token gas is paid in (FEE_TOKEN). */
  readonly feeToken: TokenInfo;
  /** The pair's quote token, for the engine's gas pricing. */
  readonly quoteToken: TokenInfo;
  /** GAS_PRICE_MULTIPLIER, default 1.25. */
  readonly multiplier: number;
  /** GAS_REFRESH_S in ms. */
  readonly refreshMs: number;
  /** CONVERSION_MARGIN_BPS. */
  readonly conversionMarginBps: number;
  /** Told about every new quote (the venue forwards it to the engine). */
  readonly onQuote?: (quote: GasQuote) => void;
}

/** Gas price and conversion rates, kept fresh. */
export class GasTracker {
  readonly #options: GasTrackerOptions;
  #gasPrice: bigint | undefined;
  #gasPriceAtMs = 0;
  #venueFeeRate: ConversionRateUnits | undefined;
  #bookFeeRate: { rate: ConversionRateUnits; atMs: number } | undefined;
  #quotePerStrk: number | undefined;
  #timer: Timer | undefined;
  #refreshing: Promise<void> | undefined;
  #lastGasError: unknown;

  constructor(options: GasTrackerOptions) {
    this.#options = options;
    if (options.quoteToken.symbol === 'STRK') this.#quotePerStrk = 1;
  }

  /**
   * Reads prices once and starts the timer.
   * @throws the error of `/gas/price` when the first read fails (nothing can be signed without it).
   */
  async start(): Promise<void> {
    await this.refresh();
    if (this.#gasPrice === undefined) throw this.#lastGasError ?? new Error('gas price unavailable');
    this.#timer ??= this.#options.clock.setInterval(() => void this.refresh(), this.#options.refreshMs, { unref: true });
  }

  /** Stops the timer. Idempotent. */
  stop(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  /** Re-reads the gas price and fallback rates now (single flight). Never throws. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** Refreshes first when the gas price is stale (SPEC §5); see {@link isStale}. */
  async ensureFresh(): Promise<void> {
    if (this.isStale()) await this.refresh();
  }

  /**
   * True when a request signed now would carry a stale gas price: older than 1.5 refresh
   * periods. The timer refreshes every period, so in normal operation the hot path never waits
   * for a REST call; only when refreshes fail does a gas-bearing request refresh first.
   */
  isStale(): boolean {
    return this.#gasPrice === undefined || this.#options.clock.nowMs() - this.#gasPriceAtMs >= this.#options.refreshMs * 1.5;
  }

  /** Feeds the fee-token/STRK book's rate (already oriented: r0 STRK worth r1 fee token). */
  onFeeBookRate(rate: ConversionRateUnits): void {
    this.#bookFeeRate = { rate, atMs: this.#options.clock.nowMs() };
  }

  /**
   * The `gas_fee` for an action of `steps` gas steps.
   * @throws Error when no gas price was ever read (start() was not awaited).
   */
  gasFee(steps: number): GasFee {
    const gasPrice = this.#gasPrice;
    if (gasPrice === undefined) throw new Error('gas price unknown: GasTracker.start() first');
    return buildGasFee({
      steps,
      feeToken: this.#options.feeToken,
      maxGasPrice: maxGasPrice(gasPrice, this.#options.multiplier),
      rate: this.feeRate(),
    });
  }

  /** The conversion rate we sign: book mid when fresh, else the venue's, skewed against us. */
  feeRate(): ConversionRateUnits {
    const feeToken = this.#options.feeToken;
    if (feeToken.symbol === 'STRK') return identityRate(feeToken);
    const book = this.#bookFeeRate;
    const bookIsFresh = book !== undefined && this.#options.clock.nowMs() - book.atMs < 2 * this.#options.refreshMs;
    const rate = bookIsFresh ? book.rate : (this.#venueFeeRate ?? book?.rate);
    if (rate === undefined) throw new Error(`no conversion rate for ${feeToken.symbol} yet`);
    return skewRate(rate, this.#options.conversionMarginBps);
  }

  /** The engine's view of gas; undefined before the first price. */
  quote(): GasQuote | undefined {
    if (this.#gasPrice === undefined) return undefined;
    return { gasPriceUnits: this.#gasPrice, quotePerStrk: this.#quotePerStrk, timeMs: this.#gasPriceAtMs };
  }

  async #refresh(): Promise<void> {
    const { source, feeToken, quoteToken, logger } = this.#options;
    const [gas, feeRate, quoteRate] = await Promise.allSettled([
      source.gasPrice(),
      feeToken.symbol === 'STRK' ? Promise.resolve(undefined) : source.conversionRate(feeToken.symbol),
      quoteToken.symbol === 'STRK' ? Promise.resolve(undefined) : source.conversionRate(quoteToken.symbol),
    ]);
    if (gas.status === 'fulfilled') {
      this.#gasPrice = gas.value;
      this.#gasPriceAtMs = this.#options.clock.nowMs();
    } else {
      this.#lastGasError = gas.reason;
      logger.warn({ err: describe(gas.reason) }, 'gas price refresh failed; keeping the last one');
    }
    if (feeRate.status === 'fulfilled' && feeRate.value !== undefined) this.#venueFeeRate = feeRate.value;
    else if (feeRate.status === 'rejected') logger.warn({ err: describe(feeRate.reason), token: feeToken.symbol }, 'conversion rate refresh failed');
    if (quoteRate.status === 'fulfilled' && quoteRate.value !== undefined) this.#quotePerStrk = quotePerStrk(quoteRate.value, quoteToken);
    else if (quoteRate.status === 'rejected') logger.debug({ err: describe(quoteRate.reason), token: quoteToken.symbol }, 'no venue rate for the quote token');
    const quote = this.quote();
    if (gas.status === 'fulfilled' && quote !== undefined) {
      try {
        this.#options.onQuote?.(quote);
      } catch (error) {
        logger.error({ err: describe(error) }, 'gas quote handler threw');
      }
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
