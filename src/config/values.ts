/**
 * Parsers for single env values. Each returns the typed value or a sentence saying what is
 * allowed, which the loader turns into a `ConfigIssue` naming the key and the value.
 */
import { CHAIN_NAMES, type ChainName } from '../core/index.ts';

/** Parsed value, or what would have been allowed. */
export type ValueResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly allowed: string };

/** A parser of one env value. */
export type ValueParser<T> = (raw: string) => ValueResult<T>;

const ok = <T>(value: T): ValueResult<T> => ({ ok: true, value });
const fail = <T>(allowed: string): ValueResult<T> => ({ ok: false, allowed });

/** Any non-empty string. */
export const nonEmptyString: ValueParser<string> = (raw) => (raw.length > 0 ? ok(raw) : fail('a non-empty string'));

/** Any text, the empty string included (a path that may be left unset). */
export const anyString: ValueParser<string> = (raw) => ok(raw);

/** An http(s) or ws(s) URL with one of the given protocols. */
export function url(protocols: readonly string[]): ValueParser<string> {
  const allowed = `a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`;
  return (raw) => {
    try {
      const parsed = new URL(raw);
      return protocols.includes(parsed.protocol) ? ok(raw.replace(/\/+$/, '')) : fail(allowed);
    } catch {
      return fail(allowed);
    }
  };
}

/** One of a fixed set of words. */
export function oneOf<T extends string>(choices: readonly T[]): ValueParser<T> {
  return (raw) => ((choices as readonly string[]).includes(raw) ? ok(raw as T) : fail(`one of ${choices.join(', ')}`));
}

/** A chain name. */
export const chainName: ValueParser<ChainName> = oneOf(CHAIN_NAMES);

/** An integer in [min, max]. */
export function integer(min: number, max: number): ValueParser<number> {
  return (raw) => {
    if (!/^-?\d+$/.test(raw)) return fail(`an integer from ${min} to ${max}`);
    const value = Number(raw);
    return value >= min && value <= max ? ok(value) : fail(`an integer from ${min} to ${max}`);
  };
}

/** A plain decimal number in [min, max] (kept as its text too, for exact money math). */
export function decimal(min: number, max: number, unit = ''): ValueParser<{ text: string; value: number }> {
  const suffix = unit === '' ? '' : ` ${unit}`;
  const allowed = `a decimal number from ${min} to ${max}${suffix} (plain digits, e.g. 1.25)`;
  return (raw) => {
    if (!/^\d+(\.\d+)?$/.test(raw)) return fail(allowed);
    const value = Number(raw);
    return value >= min && value <= max ? ok({ text: raw, value }) : fail(allowed);
  };
}

/** A keyword (e.g. `auto`, `off`) or a plain decimal number in [min, max]. */
export function keywordOrDecimal<K extends string>(keyword: K, min: number, max: number, unit = ''): ValueParser<K | { text: string; value: number }> {
  const number = decimal(min, max, unit);
  return (raw) => {
    if (raw === keyword) return ok(keyword);
    const parsed = number(raw);
    return parsed.ok ? parsed : fail(`${keyword}, or ${parsed.allowed}`);
  };
}

/** true/false, 1/0, on/off, yes/no. */
export const boolean: ValueParser<boolean> = (raw) => {
  const lowered = raw.toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(lowered)) return ok(true);
  if (['false', '0', 'off', 'no'].includes(lowered)) return ok(false);
  return fail('true or false (also 1/0, on/off, yes/no)');
};

const FELT_LIMIT = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** A Starknet address: 0x-hex felt, 1–64 hex digits, below the field prime. Normalised to lowercase. */
export const address: ValueParser<string> = (raw) => {
  const allowed = 'a 0x-prefixed hex Starknet address (1 to 64 hex digits)';
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(raw)) return fail(allowed);
  return BigInt(raw) < FELT_LIMIT ? ok(raw.toLowerCase()) : fail(allowed);
};

const CURVE_ORDER = 0x0800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2fn;

/** A Stark-curve private key: 0x-hex, 1 ≤ key < curve order. Its value is never echoed back. */
export const privateKey: ValueParser<string> = (raw) => {
  const allowed = 'a 0x-prefixed hex Stark private key (1 ≤ key < curve order)';
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(raw)) return fail(allowed);
  const value = BigInt(raw);
  return value >= 1n && value < CURVE_ORDER ? ok(raw.toLowerCase()) : fail(allowed);
};

/** A token symbol (upper-case letters and digits); checked against the chain's table later. */
export const tokenSymbol: ValueParser<string> = (raw) =>
  /^[A-Z][A-Z0-9]{0,15}$/.test(raw) ? ok(raw) : fail('a token symbol in capitals, e.g. ETH, USDC');

/** An address, or empty for "the chain's default" (EXCHANGE_ADDRESS, CORE_ADDRESS, …). */
export const optionalAddress: ValueParser<string | undefined> = (raw) => (raw === '' ? ok(undefined) : address(raw));

/** A URL with one of the given protocols, or empty for "none". */
export function optionalUrl(protocols: readonly string[]): ValueParser<string | undefined> {
  const parse = url(protocols);
  return (raw) => (raw === '' ? ok(undefined) : parse(raw));
}
/** Starknet addresses separated by commas or spaces; empty = none. Normalised to lowercase. */
export const addressList: ValueParser<readonly string[]> = (raw) => {
  const items = raw.split(/[\s,]+/).filter((item) => item !== '');
  const parsed: string[] = [];
  for (const item of items) {
    const result = address(item);
    if (!result.ok) return fail(`0x addresses separated by commas (${JSON.stringify(item)} is not one), or empty for none`);
    parsed.push(result.value);
  }
  return ok(parsed);
};

/** `unix:PATH`: a Unix socket path (the remote signer's). Returns the path. */
export const unixSocket: ValueParser<string> = (raw) =>
  /^unix:.+/.test(raw) ? ok(raw.slice('unix:'.length)) : fail('unix:PATH, the socket of `akira-mm signer serve`');
