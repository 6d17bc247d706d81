/**
 * Gauges of the signals stage (issue 24), read from the engine's status at scrape time like the
 * other gauges: one series per signal (`akira_mm_signal{name=…}`, the names of the status's
 * JSON: obi, ofi, trade_flow, vol_short_bps, vol_long_bps, vol_ratio, reference_move_bps, toxicity_buy_bps,
 * toxicity_sell_bps, and what the quote adjustments read or did: predicted_move_bps, vol_regime_widen,
 * queue_join, reference_stale, reference_held, toxicity_size_buy, toxicity_size_sell, vol_regime_size) and the alpha term
 * (`akira_mm_alpha_bps`). Kept apart from metrics.ts so the signals' names live with the signals.
 */
import { Gauge, type Registry } from 'prom-client';
import { registerReadingGauge } from '../core/prometheus.ts';
import type { SignalStatus } from './signal-stage.ts';

/** Each signal's series label and where its value is in the status. */
const SIGNAL_SERIES: readonly (readonly [string, (signals: SignalStatus) => number])[] = [
  ['obi', (s) => s.obi],
  ['ofi', (s) => s.ofi],
  ['trade_flow', (s) => s.tradeFlow],
  ['vol_short_bps', (s) => s.volShortBps],
  ['vol_long_bps', (s) => s.volLongBps],
  ['vol_ratio', (s) => s.volRatio],
  ['reference_move_bps', (s) => s.referenceMoveBps],
  ['toxicity_buy_bps', (s) => s.toxicityBuyBps],
  ['toxicity_sell_bps', (s) => s.toxicitySellBps],
  ['predicted_move_bps', (s) => s.predictedMoveBps],
  ['vol_regime_widen', (s) => s.volRegimeWiden],
  ['queue_join', (s) => s.queueJoin],
  ['reference_stale', (s) => s.referenceStale],
  ['reference_held', (s) => s.referenceHeld],
  ['toxicity_size_buy', (s) => s.toxicitySizeBuy],
  ['toxicity_size_sell', (s) => s.toxicitySizeSell],
  ['vol_regime_size', (s) => s.volRegimeSize],
];

/** Registers the signal gauges; `signals` gives the stage's status now (undefined before the engine is bound). */
export function registerSignalGauges(registry: Registry, signals: () => SignalStatus | undefined): void {
  new Gauge({
    name: 'akira_mm_signal',
    help: 'Current value of each signal against adverse selection (obi −1…1, ofi in touches of depth, trade_flow a ratio of volume rates, vol_* bps per √s and short/long, reference_move_bps since our quotes were set, toxicity_* bps our fills of that side were picked off by, predicted_move_bps Σ ALPHA_* weight·signal before the clamp, vol_regime_widen the share VOL_REGIME_WIDEN adds to each quote\'s distance, queue_join +1 bid / −1 ask moved to the touch, reference_stale +1 asks / −1 bids past REFERENCE_PULL_BPS, reference_held the side left out while the fair price lags the reference past it, toxicity_size_* the share of its size TOXICITY_SIZE_RATIO leaves that side, vol_regime_size the share VOL_REGIME_SIZE leaves every quote)',
    labelNames: ['name'],
    registers: [registry],
    collect() {
      const s = signals();
      if (s === undefined) return;
      for (const [name, read] of SIGNAL_SERIES) this.set({ name }, read(s));
    },
  });
  registerReadingGauge(registry, 'akira_mm_alpha_bps', 'The alpha term: the fair price shift the signals give now, bps (0 while every ALPHA_* weight is 0)', () => signals()?.alphaBps);
}
