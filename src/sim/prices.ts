/**
 * The sim's idea of fair value: a USD price per token, moved by a seeded random walk when the
 * synthetic flow is on (issue #3: "a reference price, configurable volatility"). From it come the
 * reference price of every pair, the conversion rate `[r0 STRK, r1 token]` of
 * `/info/conversion_rate`, and the gas price of `/gas/price`, which wanders too.
 */
import { numberToUnits, pow10, type ChainInfo, type Rng } from '../core/index.ts';
import type { Market } from './markets.ts';
import type { PriceFollower } from './price-follower.ts';

/** Starting USD prices; tokens without one cannot pay gas (WRONG_FEE_TOKEN). */
const START_USD: Readonly<Record<string, number>> = {
  ETH: 3000,
  STRK: 0.5,
  USDC: 1,
  USDT: 1,
  AETH: 3000,
  AUSDC: 1,
  AUSDT: 1,
};

const STABLES = new Set(['USDC', 'USDT', 'AUSDC', 'AUSDT']);

/** Options of the walk. */
export interface PriceWalkOptions {
  /** Annualised-looking volatility per √second of the volatile tokens (0.0005 ≈ 0.05 %/√s). */
  readonly volatilityPerSqrtSec: number;
  /** Starting gas price (fri per step). */
  readonly gasPriceFri: bigint;
  /** A token whose price follows an outside market instead of walking. */
  readonly follow?: PriceFollower;
}

/** Token prices, pair references, conversion rates and the gas price. */
export class PriceModel {
  private readonly usdPrices = new Map<string, number>();
  private gasFri: bigint;
  private readonly baseGasFri: bigint;
  private volatilityMultiplier = 1;

  constructor(
    private readonly chain: ChainInfo,
    private readonly rng: Rng,
    private readonly options: PriceWalkOptions,
  ) {
    for (const symbol of chain.tokens.keys()) {
      const usd = START_USD[symbol];
      if (usd !== undefined) this.usdPrices.set(symbol, usd);
    }
    this.gasFri = options.gasPriceFri;
    this.baseGasFri = options.gasPriceFri;
    this.applyFollowed();
  }

  /** USD price of a token, if the sim prices it. */
  usd(symbol: string): number | undefined {
    return this.usdPrices.get(symbol);
  }

  /** Quote tokens per base token. */
  referencePrice(market: Market): number {
    return (this.usd(market.base.symbol) ?? 1) / (this.usd(market.quote.symbol) ?? 1);
  }

  /** `[r0, r1]` in base units: 1 STRK (r0 = 1e18) is worth r1 base units of `token`. */
  conversionRate(token: string): readonly [bigint, bigint] | undefined {
    const native = this.chain.nativeGasToken;
    const tokenInfo = this.chain.tokens.get(token);
    const tokenUsd = this.usd(token);
    const nativeUsd = this.usd(native);
    if (tokenInfo === undefined || tokenUsd === undefined || nativeUsd === undefined) return undefined;
    const r0 = pow10(18);
    if (token === native) return [r0, r0];
    const r1 = numberToUnits(nativeUsd / tokenUsd, tokenInfo.decimals, 'down');
    return [r0, r1 > 0n ? r1 : 1n];
  }

  gasPriceFri(): bigint {
    return this.gasFri;
  }

  /** Sets the gas price (tests: make a max_gas_price stale). */
  setGasPriceFri(value: bigint): void {
    this.gasFri = value;
  }

  /** Scales the walk's volatility (a market storm: chaos runs); 1 = as configured. */
  setVolatilityMultiplier(multiplier: number): void {
    this.volatilityMultiplier = multiplier;
  }

  /** Moves prices by one step of `dtSec` seconds. */
  step(dtSec: number): void {
    const sigma = this.options.volatilityPerSqrtSec * this.volatilityMultiplier * Math.sqrt(dtSec);
    for (const [symbol, usd] of this.usdPrices) {
      if (STABLES.has(symbol)) {
        // Stables wobble around 1 and are pulled back.
        const next = usd + 0.2 * (1 - usd) + 0.00005 * this.rng.normal();
        this.usdPrices.set(symbol, next);
      } else {
        this.usdPrices.set(symbol, usd * Math.exp(sigma * this.rng.normal() - (sigma * sigma) / 2));
      }
    }
    this.applyFollowed();
    // Gas wanders within [0.5×, 2×] of its start, 2 % per step at most.
    const factor = 1 + 0.02 * Math.max(-1, Math.min(1, this.rng.normal() / 2));
    let next = BigInt(Math.round(Number(this.gasFri) * factor));
    if (next < this.baseGasFri / 2n) next = this.baseGasFri / 2n;
    if (next > this.baseGasFri * 2n) next = this.baseGasFri * 2n;
    this.gasFri = next;
  }

  /** A followed token takes the outside price whenever there is one. */
  private applyFollowed(): void {
    const follow = this.options.follow;
    const price = follow?.priceUsd();
    if (follow !== undefined && price !== undefined && price > 0 && this.usdPrices.has(follow.token)) this.usdPrices.set(follow.token, price);
  }
}
