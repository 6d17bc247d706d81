/**
 * Loading a pair's env file for a command: the config layer's keys, the engine's keys and the
 * chosen strategy's keys are validated together, and every problem is printed in one go
 * (each line names the key, the bad value — `<redacted>` for the private key — and what is allowed).
 * A pair file that holds a secret must be chmod 600 like an ssh key (`--insecure-permissions`
 * overrides); the public development keys of the shipped files are no secret.
 */
import { parse as parseDotenv } from 'dotenv';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  ALERT_KEY_LIST,
  CONFIG_KEY_LIST,
  ConfigError,
  ENGINE_KEY_LIST,
  HEDGE_KEY_LIST,
  REFERENCE_KEY_LIST,
  InsecurePermissionsError,
  assertPrivateFile,
  parsePairConfig,
  renderExampleEnv,
  secretKeys,
  type KeyGroup,
  type PairConfig,
} from '../config/index.ts';
import { formatConfigIssues, type ConfigIssue } from '../core/index.ts';
import { isPublicDevelopmentKey } from '../exchange/signer/index.ts';
import { STRATEGIES, STRATEGY_NAMES, getStrategyDefinition } from '../../strategies/index.ts';
import type { PairFileOptions } from './file-permissions.ts';
import { UsageError } from './io.ts';

/** Every strategy's keys: allowed in any pair file, whichever strategy it runs. */
function strategyKeys(): Set<string> {
  return new Set(Object.values(STRATEGIES).flatMap((definition) => definition.keys.map((key) => key.key)));
}

/**
 * Reads and validates a pair file; `overrides` (e.g. --base/--quote of a backtest) replace keys.
 * @throws UsageError listing every bad key of the file, or naming the file when it holds a
 *   secret and group or others may read it.
 */
export function loadPairFile(path: string, overrides: Readonly<Record<string, string>> = {}, options: PairFileOptions = {}): PairConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read env file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const fileEnv = parseDotenv(text);
  const config = validatePairEnv({ ...fileEnv, ...overrides }, path, { ...options, baseDir: dirname(path) });
  const secrets = Object.entries(fileEnv).filter(([key, value]) => secretKeys().has(key) && value.trim() !== '' && !isPublicSecret(key, value));
  if (secrets.length > 0) {
    try {
      assertPrivateFile(path, `pair file with ${secrets.map(([key]) => key).join(', ')}`, options);
    } catch (error) {
      if (error instanceof InsecurePermissionsError) throw new UsageError(error.message);
      throw error;
    }
  }
  return config;
}

/** A secret everybody knows: a development account key of the embedded exchange. */
function isPublicSecret(key: string, value: string): boolean {
  if (key !== 'SIGNER_PRIVATE_KEY' || !/^0x[0-9a-fA-F]{1,64}$/.test(value.trim())) return false;
  return isPublicDevelopmentKey(BigInt(value.trim()));
}

/** Validates env entries (config, engine and strategy keys) at once. */
export function validatePairEnv(env: Readonly<Record<string, string>>, source: string, options: PairFileOptions & { readonly baseDir?: string } = {}): PairConfig {
  const issues: ConfigIssue[] = [];
  let config: PairConfig | undefined;
  try {
    config = parsePairConfig(env, { ...options, strategyNames: STRATEGY_NAMES, extraKeys: strategyKeys() }, source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    issues.push(...error.issues);
  }
  const strategyName = env['STRATEGY'] ?? 'ladder';
  const definition = getStrategyDefinition(strategyName);
  if (definition !== undefined) {
    const params = definition.parseParams(env);
    if (!params.ok) issues.push(...params.issues);
  }
  if (issues.length > 0 || config === undefined) {
    throw new UsageError(`invalid configuration in ${source}:\n${formatConfigIssues(issues, secretKeys())}`);
  }
  return config;
}

/** The text of config/example.env: every key of every layer with default and unit. */
export function exampleEnv(): string {
  const groups: KeyGroup[] = [
    { title: 'connection, account and pair', keys: CONFIG_KEY_LIST },
    { title: 'engine, risk and gas', keys: ENGINE_KEY_LIST },
    { title: 'reference market and fair price', keys: REFERENCE_KEY_LIST },
    { title: 'hedge venue (cross-venue market making; docs/hedge.md)', keys: HEDGE_KEY_LIST },
    { title: 'alerts to a person: webhook, Telegram, Slack, Discord (README "Alerts")', keys: ALERT_KEY_LIST },
    ...Object.values(STRATEGIES).map((definition) => ({ title: `strategy ${definition.name}: ${definition.summary}`, keys: definition.keys })),
  ];
  return renderExampleEnv(groups);
}
