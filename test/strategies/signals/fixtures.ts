/** Signal settings for tests: the keys' defaults, any field overridden. */
import { SIGNAL_KEYS, defaultValues, settingsOf, type SignalSettings } from '../../../src/core/index.ts';

/** The settings a pair file that sets no SIGNAL_* or ALPHA_* key gives, with `overrides`. */
export function signalSettings(overrides: Partial<SignalSettings> = {}): SignalSettings {
  return { ...settingsOf(SIGNAL_KEYS, 'signals', defaultValues(SIGNAL_KEYS)), ...overrides };
}
