/**
 * The engine's settings, in the units the engine computes with. The CLI builds them from a pair's
 * validated env file (src/config); tests and backtests build them directly.
 */
import type { ConfiguredRiskLimits } from './pipeline/caps.ts';
import type { ReferenceSettings } from './reference-pricer.ts';

/** What to do with orders found on the venue at start. */
export type StartupOrderPolicy = 'adopt' | 'cancel';

/**
 * The base balance the inventory skew and caps measure position from: q = base held − target.
 * - `start`: the base balance when the engine starts (the bot starts flat; the default);
 * - `base`: a fixed amount of base tokens (`INVENTORY_TARGET_BASE`);
 * - `value-fraction`: a share of portfolio value at the fair price (`INVENTORY_TARGET_PCT`): the
 *   old hummingbot-style target, which moves with the price.
 */
export type InventoryTarget =
  | { readonly kind: 'start' }
  | { readonly kind: 'base'; readonly units: bigint }
  | { readonly kind: 'value-fraction'; readonly fraction: number };

/**
 * Where the fair price every strategy quotes around comes from (`FAIR_PRICE`): the venue book's
 * mid or microprice, a deep reference market's price × (1 + basis), or a depth-weighted blend.
 */
export type FairPriceSource = 'mid' | 'microprice' | 'reference' | 'blend';

/**
 * The band within which a live order stays instead of being replaced (queue priority is money).
 * Asymmetric: an order that became too aggressive (it gave up more than `aggressiveEdgeFraction`
 * of the edge after costs its quote is meant to earn; 0 = by any tick) is replaced at once; one
 * that is less aggressive stays until it is `max(ticks·tick, bps·price or fraction·distance)`
 * away, where distance is the desired quote's distance from its reference price.
 */
export interface RequoteTolerance {
  /** A live order may be more aggressive than its quote by this share of the quote's edge after costs. */
  readonly aggressiveEdgeFraction: number;
  readonly ticks: number;
  /** Relative band in bps of the price; `auto` uses `fractionOfDistance` instead. */
  readonly bps: number | 'auto';
  /** With `bps: 'auto'`: this share of the quote's distance from its reference (its half-spread). */
  readonly fractionOfDistance: number;
  /** A live order whose unfilled size is within this fraction of the desired size stays. */
  readonly sizeFraction: number;
}

/** The outbound request budget: a token bucket over venue actions (`ORDER_RATE_LIMIT_PER_S`, burst). */
export interface OutboundBudget {
  /** Sustained actions per second; 0 = unlimited. */
  readonly ratePerS: number;
  /** Bucket size: actions that may go out at once. */
  readonly burst: number;
  /** Tokens kept for cancels: placements stop short of them, so risk can always be reduced. */
  readonly reservedForCancels: number;
}

/** Every knob of the engine. */
export interface EngineSettings {
  readonly inventoryTarget: InventoryTarget;
  readonly fairPrice: FairPriceSource;
  /**
   * How long the last fair price stands when the book stops giving one (a side empty for a
   * moment): quotes stay put instead of being pulled and re-placed; 0 = pull at once.
   */
  readonly fairHoldMs: number;
  readonly requoteTolerance: RequoteTolerance;
  /** Orders older than this are replaced even inside the band; 0 = never. */
  readonly maxOrderAgeMs: number;
  /** Quotes whose edge after fees and gas, from their reference price, is under this are not placed (unless they reduce inventory). */
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
  readonly outbound: OutboundBudget;
  readonly risk: ConfiguredRiskLimits;
  /** How to price from a reference market (REFERENCE_* keys); needed by FAIR_PRICE=reference|blend. */
  readonly reference?: ReferenceSettings;
}

/** Defaults that quote small and cautiously, with every risk limit on; each field is overridable from the env file. */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
  inventoryTarget: { kind: 'start' },
  fairPrice: 'mid',
  fairHoldMs: 500,
  requoteTolerance: { aggressiveEdgeFraction: 0.1, ticks: 0, bps: 'auto', fractionOfDistance: 0.5, sizeFraction: 0.1 },
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
  outbound: { ratePerS: 10, burst: 20, reservedForCancels: 2 },
  risk: {
    maxInventoryDeviationUnits: 'auto',
    maxOrderNotionalUnits: 0n,
    maxTotalNotionalUnits: 'auto',
    maxOpenOrders: 20,
    priceBandFraction: 0.05,
    maxDrawdownQuote: 'auto',
  },
};
