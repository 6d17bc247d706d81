/** Shared helpers of the config tests. */
import { ConfigError, parsePairConfig, type LoadOptions } from '../../src/config/index.ts';

/** The ConfigError `parsePairConfig` throws for these entries (fails the test when it throws none). */
export function issuesOf(env: Record<string, string>, options: LoadOptions = {}): ConfigError {
  try {
    parsePairConfig(env, options);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}
