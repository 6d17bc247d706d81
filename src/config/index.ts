/** Public surface of `src/config`: one pair's env file, validated. */
export { CONFIG_KEYS, CONFIG_KEY_LIST, type ConfigKey, type ContractSettings, type PairSettings, type SignerKeys } from './keys.ts';
export {
  ConfigError,
  loadPairConfigFile,
  parsePairConfig,
  secretKeys,
  SIGNER_SOURCE_KEYS,
  type ConfigErrorCode,
  type LoadOptions,
  type PairConfig,
  type PairKeys,
  type SignerSource,
} from './load.ts';
export { assertPrivateFile, InsecurePermissionsError, type PermissionOptions } from './permissions.ts';
export { fileKeyOf, resolvePath, type SecretSourceOptions } from './secrets.ts';
export { renderExampleEnv, type DocumentedKey, type KeyGroup } from './example.ts';
export { type ReferenceConfig } from './reference-keys.ts';
export { hedgeMarketLabel, type HedgeConfig, type HedgeCredentials } from './hedge-keys.ts';
// The engine's, the reference's and the hedge's keys are declared in src/core/settings, where their
// readers can derive their settings from them; the config layer validates them with its own.
export {
  ALERT_EVENT_KINDS,
  ALERT_KEYS,
  ALERT_KEY_LIST,
  ENGINE_KEYS,
  ENGINE_KEY_LIST,
  FAIR_PRICES,
  HEDGE_KEYS,
  HEDGE_KEY_LIST,
  REFERENCE_KEYS,
  REFERENCE_KEY_LIST,
  REFERENCE_VENUES,
  referenceMarketLabel,
  values,
  type AlertKeys,
  type AlertSettings,
  type EngineConfig,
  type FairPriceMode,
  type HedgeKeys,
  type KeySpec,
  type ReferenceKeys,
  type ReferenceMarket,
} from '../core/index.ts';
