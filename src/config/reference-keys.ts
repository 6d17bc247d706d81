/**
 * The reference market's settings as a pair's wiring needs them (issue 10): where its feed reads
 * and how the engine prices from it, both derived from the REFERENCE_* declarations
 * (src/core/settings/reference-keys.ts), and the rule across keys the loader checks.
 */
import { REFERENCE_KEYS, settingsOf, type ConfigIssue, type ReferenceFeedSettings, type ReferenceKeys, type SettingsOf } from '../core/index.ts';

/** The reference settings of one pair: its feed's and its pricer's. */
export type ReferenceConfig = ReferenceFeedSettings & SettingsOf<typeof REFERENCE_KEYS, 'reference'>;

/**
 * Cross-key rule: a fair price from the reference needs a reference.
 * @param fairPrice the parsed `FAIR_PRICE` (undefined when it did not parse).
 * @param keys the parsed reference keys (`REFERENCE` undefined when off, absent when it did not parse).
 */
export function checkReferenceKeys(fairPrice: string | undefined, keys: Partial<ReferenceKeys>, issues: ConfigIssue[]): void {
  if ((fairPrice === 'reference' || fairPrice === 'blend') && 'REFERENCE' in keys && keys.REFERENCE === undefined) {
    issues.push({ key: 'FAIR_PRICE', value: fairPrice, allowed: 'reference and blend need REFERENCE=binance:SYMBOL (REFERENCE is off)' });
  }
}

/** The validated keys as a {@link ReferenceConfig}. */
export function toReferenceConfig(keys: ReferenceKeys): ReferenceConfig {
  return { ...settingsOf(REFERENCE_KEYS, 'reference-feed', keys), ...settingsOf(REFERENCE_KEYS, 'reference', keys) };
}
