/**
 * `backtest --venue thin`'s flags (docs/thin-venue.md): `--venue` and the taker models' `--thin-*`
 * flags, parsed by the one parser `sim` and `paper` share (thin-flags.ts). A plan carries the
 * parsed values as plain data (sweep workers receive it); a sweep cell may replace any of them.
 */
import type { FlagSpec } from './args.ts';
import { UsageError } from './io.ts';
import { givenThinFlags, parseTakerSeeds, readThinFlags, thinFlagSpecs, type ThinPlan } from './thin-flags.ts';

/** The venue a backtest quotes on: the recorded book itself, or a thin venue priced off it. */
export const VENUES = ['replay', 'thin'] as const;
export type VenueKind = (typeof VENUES)[number];

/** The `--thin-*` flags for `--help` and the parser, each with its unit, range and default, and `--taker-seeds`. */
export const THIN_OPTIONS: Readonly<Record<string, FlagSpec>> = {
  ...thinFlagSpecs('--venue thin', { backtest: true }),
  'taker-seeds': {
    type: 'string',
    value: 'N|a,b,…',
    default: 1,
    doc: "--venue thin: run once per taker seed (N seeds from --thin-taker-seed on, or a list) and report the PnL's spread over them (pnl_quote_by_taker_seed, min / median / max); the rest of the summary is the first seed's",
  },
};

/**
 * The venue and, for a thin one, its models from the flags (the defaults where not given).
 * @throws UsageError for an unknown venue, a bad value, or thin flags without `--venue thin`.
 */
export function thinPlanFromFlags(values: Readonly<Record<string, unknown>>): { readonly venue: VenueKind; readonly thin: ThinPlan | undefined } {
  const venueText = values['venue'] ?? 'replay';
  if (!(VENUES as readonly unknown[]).includes(venueText)) throw new UsageError(`--venue=${String(venueText)}: allowed ${VENUES.join(' or ')}`);
  const venue = venueText as VenueKind;
  const seedsText = values['taker-seeds'];
  if (venue !== 'thin') {
    const given = [...givenThinFlags(values), ...(typeof seedsText === 'string' ? ['taker-seeds'] : [])];
    if (given.length > 0) throw new UsageError(`--${given[0] as string} applies to --venue thin only`);
    return { venue, thin: undefined };
  }
  const thin = readThinFlags(values);
  if (typeof seedsText !== 'string') return { venue, thin };
  const first = thin.takerSeed ?? (typeof values['seed'] === 'string' && /^\d+$/.test(values['seed']) ? Number(values['seed']) : 1);
  return { venue, thin: { ...thin, takerSeeds: parseTakerSeeds(seedsText, first) } };
}

/** One line for a run's context: the thin venue's settings. */
export function describeThinPlan(thin: ThinPlan, takerPbips: number): string {
  const { uninformed, background, competitor, arbitrage } = thin;
  const arbitrageText = arbitrage.enabled
    ? `arbitrageurs after ${arbitrage.latencyMs} ms when stale past the ${takerPbips} pbips taker fee + gas + the reference's ${arbitrage.referenceFeeBps} bps fee + ${arbitrage.edgeBps} bps edge`
    : 'no arbitrageurs';
  const limitText = uninformed.limitModel === 'fixed' ? `limit ${uninformed.limitBps} bps past their trade's price (fixed)` : `slack past their trade's price drawn from an exponential of mean ${uninformed.slackMeanBps} bps (elastic)`;
  const competitorText =
    competitor === undefined || competitor.depthShare === 0
      ? 'no competing maker'
      : `competing maker at the reference touch ${competitor.offsetTicks >= 0 ? '+' : ''}${competitor.offsetTicks} ticks, at least ${competitor.halfSpreadBps} bps from the mid, ${competitor.depthShare} of the reference's queue there, lag ${competitor.lagMs} ms`;
  return (
    `venue: thin, priced off the recording as the reference (docs/thin-venue.md); uninformed takers ${uninformed.share} of the reference's trades × ${uninformed.sizeScale} size, ` +
    `${limitText}; background maker ±${background.halfSpreadBps} bps, lag ${background.lagMs} ms, ${background.depthQuote} quote a side; ${competitorText}; price-time priority; ${arbitrageText}; markouts and the end inventory against the reference mid`
  );
}
