/**
 * `backtest --venue thin`'s flags (docs/thin-venue.md): `--venue` and the taker models' `--thin-*`
 * flags, parsed by the one parser `sim` and `paper` share (thin-flags.ts). A plan carries the
 * parsed values as plain data (sweep workers receive it); a sweep cell may replace any of them.
 */
import type { FlagSpec } from './args.ts';
import { UsageError } from './io.ts';
import { givenThinFlags, readThinFlags, thinFlagSpecs, type ThinPlan } from './thin-flags.ts';

/** The venue a backtest quotes on: the recorded book itself, or a thin venue priced off it. */
export const VENUES = ['replay', 'thin'] as const;
export type VenueKind = (typeof VENUES)[number];

/** The `--thin-*` flags for `--help` and the parser, each with its unit, range and default. */
export const THIN_OPTIONS: Readonly<Record<string, FlagSpec>> = thinFlagSpecs('--venue thin');

/**
 * The venue and, for a thin one, its models from the flags (the defaults where not given).
 * @throws UsageError for an unknown venue, a bad value, or thin flags without `--venue thin`.
 */
export function thinPlanFromFlags(values: Readonly<Record<string, unknown>>): { readonly venue: VenueKind; readonly thin: ThinPlan | undefined } {
  const venueText = values['venue'] ?? 'replay';
  if (!(VENUES as readonly unknown[]).includes(venueText)) throw new UsageError(`--venue=${String(venueText)}: allowed ${VENUES.join(' or ')}`);
  const venue = venueText as VenueKind;
  if (venue !== 'thin') {
    const given = givenThinFlags(values);
    if (given.length > 0) throw new UsageError(`--${given[0] as string} applies to --venue thin only`);
    return { venue, thin: undefined };
  }
  return { venue, thin: readThinFlags(values) };
}

/** One line for a run's context: the thin venue's settings. */
export function describeThinPlan(thin: ThinPlan, takerPbips: number): string {
  const { uninformed, background, arbitrage } = thin;
  const arbitrageText = arbitrage.enabled ? `arbitrageurs after ${arbitrage.latencyMs} ms, edge ${arbitrage.edgeBps} bps over the ${takerPbips} pbips taker fee and gas` : 'no arbitrageurs';
  return (
    `venue: thin, priced off the recording as the reference (docs/thin-venue.md); uninformed takers ${uninformed.share} of the reference's trades × ${uninformed.sizeScale} size, ` +
    `limit ${uninformed.limitBps} bps; background maker ±${background.halfSpreadBps} bps, lag ${background.lagMs} ms, ${background.depthQuote} quote a side; ${arbitrageText}; markouts against the reference mid`
  );
}
