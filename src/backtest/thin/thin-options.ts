/**
 * The settings of a thin venue (docs/thin-venue.md): LayerAkira's published fees and the models
 * of `src/core/takers` (uninformed takers, two makers, arbitrageurs), each with its defaults.
 */
import {
  DEFAULT_ARBITRAGE,
  DEFAULT_BACKGROUND_MAKER,
  DEFAULT_COMPETING_MAKER,
  DEFAULT_UNINFORMED_TAKERS,
  MmError,
  assertValidRules,
  checkArbitrageOptions,
  checkBackgroundMakerOptions,
  checkCompetingMakerOptions,
  checkUninformedTakerOptions,
  type ArbitrageOptions,
  type BackgroundMakerOptions,
  type CompetingMakerOptions,
  type Rng,
  type TickerRules,
  type UninformedTakerOptions,
} from '../../core/index.ts';

/**
 * LayerAkira's published trade fees, pbips (1000 = 10 bps): maker 2 bps, taker 10 bps; the taker
 * also pays the gas of its trade (docs/venue.md, SPEC §5). The thin venue's defaults.
 */
export const LAYERAKIRA_FEES = { makerPbips: 200, takerPbips: 1_000 } as const;

/** Settings of a `ThinExchange`. */
export interface ThinExchangeOptions {
  readonly rules: TickerRules;
  /** The venue's taker fee, pbips: what an arbitrageur pays to take a quote. Default LayerAkira's, 1000. */
  readonly takerFeePbips: number;
  readonly uninformed: UninformedTakerOptions;
  readonly background: BackgroundMakerOptions;
  /** The competing maker; absent (options written before issue 30): none. */
  readonly competitor?: CompetingMakerOptions;
  readonly arbitrage: ArbitrageOptions;
  /** The uninformed takers' draws: fork it from the taker seed's RNG (`createRng(seed).fork('thin')`). */
  readonly rng: Rng;
  /** The seed `rng` came from, for the summary (`taker_seed`); absent: not stated. */
  readonly takerSeed?: number;
}

/** Every default of a thin venue but the pair's rules and the RNG. */
export const DEFAULT_THIN_VENUE: Omit<ThinExchangeOptions, 'rules' | 'rng'> = {
  takerFeePbips: LAYERAKIRA_FEES.takerPbips,
  uninformed: DEFAULT_UNINFORMED_TAKERS,
  background: DEFAULT_BACKGROUND_MAKER,
  competitor: DEFAULT_COMPETING_MAKER,
  arbitrage: DEFAULT_ARBITRAGE,
};

/**
 * The options, checked.
 * @throws MmError `CORE_INVALID_OPTION` naming the field and its value; `CORE_INVALID_RULES`.
 */
export function checkThinExchangeOptions(options: ThinExchangeOptions): ThinExchangeOptions {
  assertValidRules(options.rules);
  if (!Number.isInteger(options.takerFeePbips) || options.takerFeePbips < 0 || options.takerFeePbips > 1_000_000) {
    throw new MmError('CORE_INVALID_OPTION', `thin venue takerFeePbips = ${options.takerFeePbips}: allowed a whole number of pbips from 0 to 1000000`);
  }
  checkUninformedTakerOptions(options.uninformed);
  checkBackgroundMakerOptions(options.background);
  if (options.competitor !== undefined) checkCompetingMakerOptions(options.competitor);
  checkArbitrageOptions(options.arbitrage);
  return options;
}
