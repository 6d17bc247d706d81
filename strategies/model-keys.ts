/**
 * Env keys shared in shape by the two optimal-quoting models (`avellaneda-stoikov`, `glft`): order
 * size (base tokens or quote notional), spread floor and cap, levels and the reference price. Each
 * strategy gets its own prefixed copy so a pair file can hold both sets of keys.
 */
import { envKey, values as v, type ConfigIssue } from '../src/core/index.ts';
import { buildSizeKeys } from './order-sizing.ts';
import { PRICE_SOURCES } from './passive-quotes.ts';

/** Defaults of the shared keys for one strategy. */
export interface ModelKeyDefaults {
  readonly orderSize: string;
  readonly minSpreadBps: string;
  readonly maxSpreadBps: string;
  readonly maxSkewBps: string;
}

/** Builds the shared keys under `prefix` (e.g. `AS`). */
export function buildModelKeys(prefix: string, defaults: ModelKeyDefaults) {
  return {
    ...buildSizeKeys(prefix, { orderSize: defaults.orderSize, sizeDoc: 'Size of each order, also the model\'s order size Δ' }),
    minSpreadBps: envKey({
      key: `${prefix}_MIN_SPREAD_BPS`,
      default: defaults.minSpreadBps,
      unit: 'bps of reference',
      doc: 'Floor on the level-0 bid–ask distance; a narrower model spread is widened around its own centre, so the inventory skew stays',
      parse: v.numberIn({ min: 0, max: 5_000, unit: 'bps' }),
    }),
    maxSpreadBps: envKey({
      key: `${prefix}_MAX_SPREAD_BPS`,
      default: defaults.maxSpreadBps,
      unit: 'bps of reference',
      doc: 'Cap on the model spread (before the skew), so a bad fit or a volatility spike cannot quote absurdly wide',
      parse: v.numberIn({ min: 0, minExclusive: true, max: 10_000, unit: 'bps' }),
    }),
    levels: envKey({
      key: `${prefix}_LEVELS`,
      default: '1',
      unit: 'orders per side',
      doc: 'Number of price levels on each side, each one order\'s size',
      parse: v.numberIn({ min: 1, max: 50, integer: true }),
    }),
    levelSpacingBps: envKey({
      key: `${prefix}_LEVEL_SPACING_BPS`,
      default: '5',
      unit: 'bps of reference',
      doc: 'Extra distance of each deeper level from the one before it',
      parse: v.numberIn({ min: 0, max: 5_000, unit: 'bps' }),
    }),
    maxSkewBps: envKey({
      key: `${prefix}_MAX_SKEW_BPS`,
      default: defaults.maxSkewBps,
      unit: 'bps of reference',
      doc: 'Cap on the reservation offset: the inventory skew moves the quotes\' centre at most this far from the fair price',
      parse: v.numberIn({ min: 0, max: 5_000, unit: 'bps' }),
    }),
    priceSource: envKey({
      key: `${prefix}_PRICE_SOURCE`,
      default: 'fair',
      unit: 'fair|mid|microprice',
      doc: 'Price s the model quotes around: fair = the engine\'s FAIR_PRICE; mid or microprice = the venue book\'s own',
      parse: v.oneOf(PRICE_SOURCES, { anyCase: true }),
    }),
  };
}

/** Cross-check: the spread floor must not exceed the cap. */
export function checkSpreadBounds(prefix: string) {
  return (values: { readonly minSpreadBps: number; readonly maxSpreadBps: number }, rawOf: (key: string) => string): ConfigIssue[] =>
    values.minSpreadBps <= values.maxSpreadBps
      ? []
      : [{ key: `${prefix}_MIN_SPREAD_BPS`, value: rawOf(`${prefix}_MIN_SPREAD_BPS`), allowed: `at most ${prefix}_MAX_SPREAD_BPS (${values.maxSpreadBps})` }];
}
