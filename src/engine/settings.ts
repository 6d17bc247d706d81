/**
 * The engine's settings, in the units the engine computes with. Each part that a key sets is
 * derived from the keys' declarations (src/core/settings/engine-keys.ts: the field each key becomes
 * and its conversion), and {@link engineSettingsOf} builds them from a pair file's parsed keys once
 * the pair's decimals are known; tests and backtests may also build them directly.
 */
import {
  ENGINE_KEYS,
  REFERENCE_KEYS,
  SIGNAL_KEYS,
  defaultValues,
  settingsOf,
  type FairPriceMode,
  type PairDecimals,
  type ReferenceKeys,
  type SettingsOf,
  type SignalSettings,
  type ValuesReadBy,
} from '../core/index.ts';
import type { ConfiguredRiskLimits } from './pipeline/caps.ts';
import type { ReferenceSettings } from './reference-pricer.ts';

/** What to do with orders found on the venue at start (`STARTUP_ORDERS`). */
export type StartupOrderPolicy = EngineKeySettings['startupOrders'];

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
export type FairPriceSource = FairPriceMode;

type RequoteKeySettings = SettingsOf<typeof ENGINE_KEYS, 'requote'>;

/**
 * The band within which a live order stays instead of being replaced (queue priority is money).
 * Asymmetric: an order that became too aggressive (it gave up more than `aggressiveEdgeFraction`
 * of the edge after costs its quote is meant to earn; 0 = by any tick) is replaced at once; one
 * that is less aggressive stays until it is `max(ticks·tick, bps·price or fraction·distance)`
 * away, where distance is the desired quote's distance from its reference price. The REQUOTE_*
 * keys set every field but `fractionOfDistance`.
 */
export interface RequoteTolerance extends RequoteKeySettings {
  /** With `bps: 'auto'`: this share of the quote's distance from its reference (its half-spread). */
  readonly fractionOfDistance: number;
}

type OutboundKeySettings = SettingsOf<typeof ENGINE_KEYS, 'outbound'>;

/** The outbound request budget: a token bucket over venue actions (`ORDER_RATE_LIMIT_PER_S`, `ORDER_RATE_BURST`; 0/s = unlimited). */
export interface OutboundBudget extends OutboundKeySettings {
  /** Tokens kept for cancels: placements stop short of them, so risk can always be reduced. */
  readonly reservedForCancels: number;
}

type EngineKeySettings = SettingsOf<typeof ENGINE_KEYS, 'engine'>;

/** Every knob of the engine: one field per key the engine reads (`engine` in its declaration), and its parts. */
export interface EngineSettings extends EngineKeySettings {
  readonly inventoryTarget: InventoryTarget;
  readonly requoteTolerance: RequoteTolerance;
  /** Drift between expected and venue balances tolerated silently, in base units of each token. */
  readonly driftToleranceUnits: bigint;
  readonly outbound: OutboundBudget;
  readonly risk: ConfiguredRiskLimits;
  /** How to price from a reference market (REFERENCE_* keys); needed by FAIR_PRICE=reference|blend. */
  readonly reference?: ReferenceSettings;
  /** The signals and the alpha term (SIGNAL_* and ALPHA_* keys); the defaults when not given (alpha off). */
  readonly signals?: SignalSettings;
}

/** The knobs no key sets. */
const FIXED = { fractionOfDistance: 0.5, reservedForCancels: 2, driftToleranceUnits: 10n } as const;

/** The parsed keys the engine's settings are built from: its own, and the reference's when one is read. */
export type EngineKeyValues = ValuesReadBy<typeof ENGINE_KEYS, 'engine' | 'inventory-target' | 'requote' | 'outbound' | 'risk'> &
  ValuesReadBy<typeof REFERENCE_KEYS, 'reference'> &
  Pick<ReferenceKeys, 'REFERENCE'> &
  Partial<ValuesReadBy<typeof SIGNAL_KEYS, 'signals'>>;

const DEFAULT_SIGNAL_VALUES = defaultValues(SIGNAL_KEYS);

/** The signals' settings of a pair file that sets no SIGNAL_* or ALPHA_* key: the alpha term off. */
export const DEFAULT_SIGNAL_SETTINGS: SignalSettings = settingsOf(SIGNAL_KEYS, 'signals', DEFAULT_SIGNAL_VALUES);

/** The entries of `keys` that hold a value (an absent signal key keeps its default). */
function definedOnly(keys: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== undefined));
}

/**
 * The engine's settings from a pair file's parsed keys.
 * @param decimals the pair's token decimals: inventory target and caps become base units.
 * @throws MmError `CORE_INVARIANT` when an amount is set and the decimals it needs are not given.
 */
export function engineSettingsOf(keys: EngineKeyValues, decimals: Partial<PairDecimals>): EngineSettings {
  const target = settingsOf(ENGINE_KEYS, 'inventory-target', keys, decimals);
  return {
    ...settingsOf(ENGINE_KEYS, 'engine', keys, decimals),
    inventoryTarget:
      target.valueFraction !== undefined ? { kind: 'value-fraction', fraction: target.valueFraction } : target.base === 'start' ? { kind: 'start' } : { kind: 'base', units: target.base },
    requoteTolerance: { ...settingsOf(ENGINE_KEYS, 'requote', keys, decimals), fractionOfDistance: FIXED.fractionOfDistance },
    driftToleranceUnits: FIXED.driftToleranceUnits,
    outbound: { ...settingsOf(ENGINE_KEYS, 'outbound', keys, decimals), reservedForCancels: FIXED.reservedForCancels },
    risk: settingsOf(ENGINE_KEYS, 'risk', keys, decimals),
    ...(keys.REFERENCE === undefined ? {} : { reference: settingsOf(REFERENCE_KEYS, 'reference', keys) }),
    // Callers that build settings from engine keys alone (tests, older paths) get the defaults: alpha off.
    signals: settingsOf(SIGNAL_KEYS, 'signals', { ...DEFAULT_SIGNAL_VALUES, ...definedOnly(keys) } as ValuesReadBy<typeof SIGNAL_KEYS, 'signals'>),
  };
}

/**
 * What a pair file that sets no engine key gives: small, cautious quoting with every risk limit
 * on (the keys' defaults; no amount default needs a pair's decimals).
 */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = engineSettingsOf({ ...defaultValues(ENGINE_KEYS), ...defaultValues(REFERENCE_KEYS) }, {});
