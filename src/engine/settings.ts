/**
 * The engine's settings, in the units the engine computes with. The CLI builds them from a pair's
 * validated env file (src/config); tests and backtests build them directly.
 */
import type { RiskLimits } from './risk.ts';

/** What to do with orders found on the venue at start. */
export type StartupOrderPolicy = 'adopt' | 'cancel';

/** Every knob of the engine. */
export interface EngineSettings {
  /** Share of portfolio value the strategy aims to hold in base (0.5 = half). */
  readonly inventoryTargetFraction: number;
  /** Tolerance band: an order within this many ticks… */
  readonly requoteToleranceTicks: number;
  /** …and this fraction of size of a desired quote stays (queue priority is money). */
  readonly requoteToleranceSizeFraction: number;
  /** Orders older than this are replaced even inside the band; 0 = never. */
  readonly maxOrderAgeMs: number;
  /** Quotes whose edge after fees and gas is under this are not placed. */
  readonly minEdgeBps: number;
  /** Conversion-rate margin against us when valuing gas (fraction). */
  readonly conversionMargin: number;
  /** Pre-sign orders this many ticks either side of each quote; 0 disables. */
  readonly presignTicks: number;
  readonly startupOrders: StartupOrderPolicy;
  /** Heal from REST on this period even without a reason; 0 disables. */
  readonly reconcileIntervalMs: number;
  /** Dead-man: no market data for this long → cancel everything until the feed is back. */
  readonly staleFeedMs: number;
  /** On SIGTERM, wait at most this long for the venue to confirm that nothing rests. */
  readonly shutdownTimeoutMs: number;
  /** Increase the nonce on chain (cancels everything) when a fatal condition halts the bot. */
  readonly onchainKill: boolean;
  /** Drift between expected and venue balances tolerated silently, in base units of each token. */
  readonly driftToleranceUnits: bigint;
  readonly risk: RiskLimits;
}

/** Defaults that quote small and cautiously; every field is overridable from the env file. */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
  inventoryTargetFraction: 0.5,
  requoteToleranceTicks: 2,
  requoteToleranceSizeFraction: 0.1,
  maxOrderAgeMs: 300_000,
  minEdgeBps: 0,
  conversionMargin: 0.005,
  presignTicks: 2,
  startupOrders: 'cancel',
  reconcileIntervalMs: 30_000,
  staleFeedMs: 10_000,
  shutdownTimeoutMs: 10_000,
  onchainKill: false,
  driftToleranceUnits: 10n,
  risk: {
    maxInventoryDeviationUnits: 0n,
    maxOrderNotionalUnits: 0n,
    maxTotalNotionalUnits: 0n,
    maxOpenOrders: 20,
    priceBandFraction: 0.05,
    maxDrawdownQuote: 0,
  },
};
