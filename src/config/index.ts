/** Public surface of `src/config`: one pair's env file, validated. */
export { CONFIG_KEYS, CONFIG_KEY_LIST, type KeySpec, type ConfigKey } from './keys.ts';
export {
  ConfigError,
  loadPairConfigFile,
  parsePairConfig,
  secretKeys,
  SIGNER_SOURCE_KEYS,
  type ConfigErrorCode,
  type LoadOptions,
  type PairConfig,
  type SignerSource,
} from './load.ts';
export { assertPrivateFile, InsecurePermissionsError, type PermissionOptions } from './permissions.ts';
export { fileKeyOf, resolvePath, type SecretSourceOptions } from './secrets.ts';
export * as values from './values.ts';
export { renderExampleEnv, type DocumentedKey, type KeyGroup } from './example.ts';
export { ENGINE_KEYS, ENGINE_KEY_LIST, type EngineConfig } from './engine-keys.ts';
export {
  FAIR_PRICES,
  REFERENCE_KEYS,
  REFERENCE_KEY_LIST,
  REFERENCE_VENUES,
  referenceMarketLabel,
  type FairPriceMode,
  type ReferenceConfig,
  type ReferenceKeys,
  type ReferenceMarket,
} from './reference-keys.ts';
export { HEDGE_KEYS, HEDGE_KEY_LIST, hedgeMarketLabel, type HedgeConfig, type HedgeCredentials, type HedgeKeys } from './hedge-keys.ts';
