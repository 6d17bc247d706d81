/**
 * Env keys of the signals against adverse selection (issue 24) and of the alpha term built on
 * them: how each signal reads the market (SIGNAL_*), and how much each shifts the fair price
 * (ALPHA_*, written by `akira-mm fit --write`). Every ALPHA_* weight defaults to 0, so a pair
 * file that sets none quotes exactly as before; the signals are still computed and shown as
 * metrics. Names are a contract with users' env files: add, never rename.
 */
import { secondsToMs, valueOf } from './convert.ts';
import { defineKeys, key, type KeySpec, type KeyValues, type SettingsOf } from './keys.ts';
import * as v from './values.ts';

/** Bound of an alpha weight, bps of the fair price per unit of its signal. */
const MAX_WEIGHT_BPS = 1_000;

/** Signal and alpha keys, in documentation order. */
export const SIGNAL_KEYS = defineKeys({
  SIGNAL_OBI_LEVELS: key(v.integer(1, 50), {
    default: '5',
    unit: 'levels',
    doc: 'Book imbalance reads this many levels per side (1 = top of book): Σ wᵢ(bᵢ − aᵢ) / Σ wᵢ(bᵢ + aᵢ), wᵢ = SIGNAL_OBI_DECAY^i',
    readers: { signals: 'obiLevels' },
  }),
  SIGNAL_OBI_DECAY: key(v.decimal(0.01, 1), {
    default: '0.5',
    unit: 'ratio',
    doc: 'Weight of each deeper level of the book imbalance relative to the one before (1 = all levels alike)',
    readers: { signals: { field: 'obiDecay', convert: valueOf } },
  }),
  SIGNAL_OFI_WINDOW_MS: key(v.integer(10, 600_000), {
    default: '1000',
    unit: 'ms',
    doc: 'Order-flow imbalance (Cont–Kukanov–Stoikov) sums top-of-book events over this window, over the window\'s mean touch depth',
    readers: { signals: 'ofiWindowMs' },
  }),
  SIGNAL_TRADE_FLOW_HALF_LIFE_MS: key(v.integer(10, 600_000), {
    default: '1000',
    unit: 'ms',
    doc: 'Signed trade flow: half-life of the buy − sell volume rate (normalised by the total volume rate over 10× as long)',
    readers: { signals: 'tradeFlowHalfLifeMs' },
  }),
  SIGNAL_VOL_SHORT_HALF_LIFE_S: key(v.integer(1, 86_400), {
    default: '10',
    unit: 's',
    doc: 'Half-life of the short-horizon volatility signal (squared log returns of the mid)',
    readers: { signals: { field: 'volShortHalfLifeMs', convert: secondsToMs } },
  }),
  SIGNAL_VOL_LONG_HALF_LIFE_S: key(v.integer(1, 86_400), {
    default: '300',
    unit: 's',
    doc: 'Half-life of the long-horizon volatility signal; the regime ratio is short over long',
    readers: { signals: { field: 'volLongHalfLifeMs', convert: secondsToMs } },
  }),
  SIGNAL_TOXICITY_HORIZON_MS: key(v.integer(10, 600_000), {
    default: '1000',
    unit: 'ms',
    doc: 'Toxicity of each side: our fills\' markouts against the fair price this long after each fill',
    readers: { signals: 'toxicityHorizonMs' },
  }),
  SIGNAL_TOXICITY_HALF_LIFE_S: key(v.integer(1, 86_400), {
    default: '300',
    unit: 's',
    doc: 'Half-life of a markout\'s weight in its side\'s toxicity (recent fills count more)',
    readers: { signals: { field: 'toxicityHalfLifeMs', convert: secondsToMs } },
  }),
  TOXICITY_WIDEN_RATIO: key(v.decimal(0, 100), {
    default: '0',
    unit: 'ratio',
    doc: 'A side picked off by t bps (its toxicity) has its quotes moved t × this further from the fair price, at most TOXICITY_MAX_WIDEN_BPS; 0 = off',
    readers: { signals: { field: 'toxicityWidenRatio', convert: valueOf } },
  }),
  TOXICITY_MAX_WIDEN_BPS: key(v.decimal(0, 1_000), {
    default: '5',
    unit: 'bps',
    doc: 'Most a toxic side\'s quotes are moved away by TOXICITY_WIDEN_RATIO',
    readers: { signals: { field: 'toxicityMaxWidenBps', convert: valueOf } },
  }),
  TOXICITY_SIZE_RATIO: key(v.decimal(0, 100), {
    default: '0',
    unit: 'ratio',
    doc: 'A side picked off by t bps (its toxicity) has its quote sizes multiplied by 1 / (1 + t × this), never above the strategy\'s; the pipeline rounds them down to the lot and drops one under the minimum; 0 = off',
    readers: { signals: { field: 'toxicitySizeRatio', convert: valueOf } },
  }),
  VOL_REGIME_WIDEN: key(v.decimal(0, 100), {
    default: '0',
    unit: 'ratio',
    doc: 'While the volatility regime (short / long σ of the signals) is above 1, each quote\'s distance from its model\'s centre grows by this × (regime − 1), at most VOL_REGIME_MAX_WIDEN_BPS: a faster market gets a wider half-spread in every model; 0 = off',
    readers: { signals: { field: 'volRegimeWiden', convert: valueOf } },
  }),
  VOL_REGIME_MAX_WIDEN_BPS: key(v.decimal(0, 1_000), {
    default: '10',
    unit: 'bps',
    doc: 'Most VOL_REGIME_WIDEN moves a quote further from the fair price',
    readers: { signals: { field: 'volRegimeMaxWidenBps', convert: valueOf } },
  }),
  VOL_REGIME_SIZE: key(v.decimal(0, 100), {
    default: '0',
    unit: 'ratio',
    doc: 'While the volatility regime r (short / long σ of the signals) is above 1, every quote\'s size is multiplied by 1 / (1 + this × (r − 1)); the pipeline rounds it down to the lot and drops one under the minimum; 0 = off',
    readers: { signals: { field: 'volRegimeSize', convert: valueOf } },
  }),
  QUEUE_JOIN_THRESHOLD_BPS: key(v.decimal(0, 1_000), {
    default: '0',
    unit: 'bps',
    doc: 'Queue-aware placement: when the signals predict the fair price moves at least this far (Σ ALPHA_* weight·signal, bps), the level-0 quote of the side the move favours (the bid on a rise) joins the touch, short of the price whose edge after the maker fee and MIN_EDGE_BPS would be negative; quotes of the other side at or inside the touch step one tick behind it. Needs an ALPHA_* weight (ALPHA_MAX_BPS=0 joins without shifting the fair price); 0 = off',
    readers: { signals: { field: 'queueJoinThresholdBps', convert: valueOf } },
  }),
  QUEUE_IMPROVE: key(v.boolean, {
    default: 'off',
    unit: 'bool',
    doc: 'With QUEUE_JOIN_THRESHOLD_BPS: improve the touch by one tick instead of joining it, where the spread is at least two ticks (never crossing the book or our own quotes)',
    readers: { signals: 'queueImprove' },
  }),
  REFERENCE_PULL_BPS: key(v.decimal(0, 1_000), {
    default: '0',
    unit: 'bps',
    doc: 'Lead–lag: once the reference mid has moved more than this since our quotes were last set, the stale side (the asks on a rise, the bids on a fall) is cancelled at once through the venue\'s cancel path (FAST_CANCEL on LayerAkira), outside the outbound budget, and requoted at the new fair price (held out while that has not followed: REFERENCE_PULL_HOLD_MS); needs REFERENCE; 0 = off',
    readers: { signals: { field: 'referencePullBps', convert: valueOf } },
  }),
  REFERENCE_PULL_HOLD_MS: key(v.integer(0, 600_000), {
    default: '1000',
    unit: 'ms',
    doc: 'With REFERENCE_PULL_BPS: a side the reference moved through by more than it while the fair price did not follow (a fair price off a lagging venue\'s book) is not quoted again for up to this long, or until the fair price catches up; 0 = pull and requote at once',
    readers: { signals: 'referencePullHoldMs' },
  }),
  ALPHA_OBI_BPS: key(v.signedDecimal(-MAX_WEIGHT_BPS, MAX_WEIGHT_BPS, 'bps'), {
    default: '0',
    unit: 'bps',
    doc: 'Fair price shift per unit of book imbalance (−1…1): fair × (1 + Σ weight·signal / 10⁴); 0 = unused. `akira-mm fit --write` sets it',
    readers: { signals: 'alphaObiBps' },
  }),
  ALPHA_OFI_BPS: key(v.signedDecimal(-MAX_WEIGHT_BPS, MAX_WEIGHT_BPS, 'bps'), {
    default: '0',
    unit: 'bps',
    doc: 'Fair price shift per unit of order-flow imbalance (touches of depth); 0 = unused',
    readers: { signals: 'alphaOfiBps' },
  }),
  ALPHA_TRADE_FLOW_BPS: key(v.signedDecimal(-MAX_WEIGHT_BPS, MAX_WEIGHT_BPS, 'bps'), {
    default: '0',
    unit: 'bps',
    doc: 'Fair price shift per unit of signed trade flow; 0 = unused',
    readers: { signals: 'alphaTradeFlowBps' },
  }),
  ALPHA_MAX_BPS: key(v.decimal(0, 1_000), {
    default: '2',
    unit: 'bps',
    doc: 'The alpha term is clamped to ± this, so a bad fit or an odd book cannot run the fair price away; 0 = alpha off',
    readers: { signals: { field: 'alphaMaxBps', convert: valueOf } },
  }),
});

/** The signal keys as a list, in documentation order. */
export const SIGNAL_KEY_LIST: readonly KeySpec[] = Object.values(SIGNAL_KEYS);

/** Validated signal keys, as parsed. */
export type SignalKeys = KeyValues<typeof SIGNAL_KEYS>;

/** What the signals and the alpha term read: one field per SIGNAL_* and ALPHA_* key. */
export type SignalSettings = SettingsOf<typeof SIGNAL_KEYS, 'signals'>;
