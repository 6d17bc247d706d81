/**
 * From a pair's validated env file to the engine's settings: the one place where the file's
 * human units (base tokens, quote tokens, %, s) become the engine's exact units, once the pair's
 * token decimals are known. Shared by `run`, `paper` and `backtest`.
 */
import type { EngineConfig, ReferenceConfig } from '../config/index.ts';
import { parseUnits } from '../core/index.ts';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings, type InventoryTarget } from '../engine/index.ts';

/** Token decimals of the pair. */
export interface PairDecimals {
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
}

/** Builds engine settings from the env file's engine keys. */
export function engineSettingsFromConfig(engine: EngineConfig, decimals: PairDecimals, reference?: ReferenceConfig): EngineSettings {
  const base = (text: string): bigint => parseUnits(text, decimals.baseDecimals, { rounding: 'down' });
  const quote = (text: string): bigint => parseUnits(text, decimals.quoteDecimals, { rounding: 'down' });
  const targetPct = engine.INVENTORY_TARGET_PCT;
  const targetBase = engine.INVENTORY_TARGET_BASE;
  const inventoryTarget: InventoryTarget =
    targetPct !== 'off' ? { kind: 'value-fraction', fraction: targetPct.value / 100 } : targetBase === 'start' ? { kind: 'start' } : { kind: 'base', units: base(targetBase.text) };
  const inventoryCap = engine.RISK_MAX_INVENTORY_BASE;
  const totalNotional = engine.RISK_MAX_TOTAL_NOTIONAL;
  const drawdown = engine.RISK_MAX_DRAWDOWN;
  return {
    ...DEFAULT_ENGINE_SETTINGS,
    inventoryTarget,
    fairPrice: engine.FAIR_PRICE,
    fairHoldMs: engine.FAIR_HOLD_MS,
    requoteTolerance: {
      ...DEFAULT_ENGINE_SETTINGS.requoteTolerance,
      aggressiveEdgeFraction: engine.REQUOTE_AGGRESSIVE_TOLERANCE_PCT.value / 100,
      ticks: engine.REQUOTE_TOLERANCE_TICKS,
      bps: engine.REQUOTE_TOLERANCE_BPS === 'auto' ? 'auto' : engine.REQUOTE_TOLERANCE_BPS.value,
      sizeFraction: engine.REQUOTE_TOLERANCE_SIZE_PCT.value / 100,
    },
    maxOrderAgeMs: engine.MAX_ORDER_AGE_S * 1_000,
    minEdgeBps: engine.MIN_EDGE_BPS.value,
    conversionMargin: engine.CONVERSION_MARGIN_BPS.value / 10_000,
    presignTicks: engine.PRESIGN_TICKS,
    startupOrders: engine.STARTUP_ORDERS,
    reconcileIntervalMs: engine.RECONCILE_INTERVAL_S * 1_000,
    staleFeedMs: engine.STALE_FEED_MS,
    shutdownTimeoutMs: engine.SHUTDOWN_TIMEOUT_MS,
    onchainKill: engine.RISK_ONCHAIN_KILL,
    outbound: { ...DEFAULT_ENGINE_SETTINGS.outbound, ratePerS: engine.ORDER_RATE_LIMIT_PER_S.value, burst: engine.ORDER_RATE_BURST },
    risk: {
      maxInventoryDeviationUnits: inventoryCap === 'auto' ? 'auto' : base(inventoryCap.text),
      maxOrderNotionalUnits: quote(engine.RISK_MAX_ORDER_NOTIONAL.text),
      maxTotalNotionalUnits: totalNotional === 'auto' ? 'auto' : quote(totalNotional.text),
      maxOpenOrders: engine.RISK_MAX_OPEN_ORDERS,
      priceBandFraction: engine.RISK_PRICE_BAND_PCT.value / 100,
      maxDrawdownQuote: drawdown === 'auto' ? 'auto' : drawdown.value,
    },
    ...(reference?.market === undefined
      ? {}
      : {
          reference: {
            price: reference.price,
            basisBps: reference.basisBps,
            basisHalfLifeS: reference.basisHalfLifeS,
            basisMaxStepBps: reference.basisMaxStepBps,
            maxDivergenceBps: reference.maxDivergenceBps,
            jumpBps: reference.jumpBps,
            jumpWindowMs: reference.jumpWindowMs,
          },
        }),
  };
}
