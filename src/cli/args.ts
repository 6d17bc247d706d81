/** Flag parsing for CLI commands on node:util `parseArgs`, with errors that say what is wrong. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parsed flags and positionals. */
export interface ParsedArgs<T extends Options> {
  readonly values: { [K in keyof T]?: T[K] extends { type: 'boolean' } ? boolean : T[K] extends { multiple: true } ? string[] : string };
  readonly positionals: string[];
}

/**
 * Parses `args` against `options`; unknown flags and missing values become a {@link UsageError}
 * that names the flag and, with `usage`, shows how to call the command.
 */
export function parseFlags<T extends Options>(args: readonly string[], options: T, usage: string): ParsedArgs<T> {
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return parsed as unknown as ParsedArgs<T>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message}\nusage: ${usage}`);
  }
}

/** Reads an integer flag, with an error naming the flag and the allowed range. */
export function integerFlag(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name}=${value} is not an integer (allowed ${min}..${max})`);
  const parsed = Number(value);
  if (parsed < min || parsed > max) throw new UsageError(`--${name}=${value} is out of range (allowed ${min}..${max})`);
  return parsed;
}
