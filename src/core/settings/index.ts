/** Env keys declared once: the machinery, the parsers, and the tables of the components below the CLI. */
export * as values from './values.ts';
export type { DecimalValue, NumberBounds, ParsedBy, ValueParser, ValueResult } from './values.ts';
export {
  defineKeys,
  describeKeys,
  envKey,
  key,
  type KeyDeclaration,
  type KeySpec,
  type KeyTable,
  type KeyValues,
  type Landing,
  type ParamsOf,
  type PublicKeyValues,
  type Reader,
  type Readers,
  type SettingsOf,
  type TokenUnits,
  type ValuesReadBy,
} from './keys.ts';
export { defaultValues, settingsOf, type PairDecimals } from './build.ts';
export { notBoth, readKeys, type CrossCheck } from './read.ts';
export { ENGINE_KEYS, ENGINE_KEY_LIST, type EngineConfig } from './engine-keys.ts';
export {
  FAIR_PRICES,
  REFERENCE_KEYS,
  REFERENCE_KEY_LIST,
  REFERENCE_VENUES,
  referenceMarketLabel,
  type FairPriceMode,
  type ReferenceFeedSettings,
  type ReferenceKeys,
  type ReferenceMarket,
} from './reference-keys.ts';
export { HEDGE_KEYS, HEDGE_KEY_LIST, type HedgeKeys, type HedgeVenueSettings } from './hedge-keys.ts';
export {
  ALERT_EVENT_KINDS,
  ALERT_KEYS,
  ALERT_KEY_LIST,
  type AlertChannelKeys,
  type AlertChannels,
  type AlertEventKind,
  type AlertKeys,
  type AlertPolicy,
  type AlertSettings,
  type LowBalanceThreshold,
} from './alert-keys.ts';
