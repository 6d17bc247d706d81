/**
 * How a recording's scaled prices and quantities become integer ticks and lots of a pair's rules,
 * checked once per file before a replay reads it (source.ts) and applied per record (record-dispatcher.ts).
 */
import type { TickerRules } from '../../core/index.ts';
import { DataError, decimalToScaled, type RecordingHeader } from './format.ts';

/** Integer factors that turn a scaled value into ticks or lots: value × multiply / divide. */
export interface ScaleFactors {
  readonly multiply: number;
  readonly divide: number;
}

function bigGcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** value / 10^decimals in units of `step` (base units with `unitDecimals`): reduced integer factors. */
function factors(decimals: number, step: bigint, unitDecimals: number): ScaleFactors {
  const numerator = 10n ** BigInt(unitDecimals);
  const denominator = 10n ** BigInt(decimals) * step;
  const g = bigGcd(numerator, denominator);
  return { multiply: Number(numerator / g), divide: Number(denominator / g) };
}

/** How one file's prices and quantities become ticks and lots of `rules`. */
export interface RecordingScale {
  readonly price: ScaleFactors;
  readonly qty: ScaleFactors;
  /** Sizes may come out as fractions of a lot (a reference market finer than the venue's lot). */
  readonly fractionalLots?: boolean;
}

/**
 * The scale of a recording under `rules`, after checking that the recording's tick and lot are
 * whole multiples of the rules' tick and step (so every recorded value converts exactly).
 * `fractionalLots`: the recording is a reference market, not the venue's book (`--venue thin`):
 * its sizes may be finer than the venue's lot and are read as fractions of it, as the embedded
 * exchange's flow reads a followed market (docs/thin-venue.md); its prices must still fit the tick.
 * @throws DataError `DATA_RULES_MISMATCH` naming the tick or lot that does not fit.
 */
export function recordingScale(header: RecordingHeader, rules: TickerRules, source: string, options: { readonly fractionalLots?: boolean } = {}): RecordingScale {
  const fractionalLots = options.fractionalLots === true;
  const scale = {
    price: factors(header.priceDecimals, rules.priceTick, rules.quoteDecimals),
    qty: factors(header.qtyDecimals, rules.qtyStep, rules.baseDecimals),
    ...(fractionalLots ? { fractionalLots } : {}),
  };
  const fits = (value: string, decimals: number, f: ScaleFactors): boolean => {
    const scaled = decimalToScaled(value, decimals);
    return scaled !== undefined && (scaled * f.multiply) % f.divide === 0;
  };
  if (!fits(header.tick, header.priceDecimals, scale.price)) {
    throw new DataError('DATA_RULES_MISMATCH', `${source}: recorded prices step by ${header.tick}, which is not a multiple of the tick ${formatStep(rules.priceTick, rules.quoteDecimals)}`);
  }
  if (!fractionalLots && !fits(header.lot, header.qtyDecimals, scale.qty)) {
    throw new DataError('DATA_RULES_MISMATCH', `${source}: recorded sizes step by ${header.lot}, which is not a multiple of the lot ${formatStep(rules.qtyStep, rules.baseDecimals)}`);
  }
  return scale;
}

function formatStep(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${units / scale}${fraction === '' ? '' : `.${fraction}`}`;
}
