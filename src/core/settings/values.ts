/**
 * Parsers for single env values, shared by every key table (the config layer's, the engine's and
 * each strategy's). Each returns the typed value or a sentence saying what is allowed, which the
 * reader of the table turns into a `ConfigIssue` ("KEY=value: allowed …").
 *
 * Two kinds of number on purpose: `decimal` keeps the text beside the value, because amounts
 * become exact base units once a pair's decimals are known (plain digits only); `numberIn` is a
 * strategy's model parameter, plain float math (signs and exponents allowed).
 */
import { CHAIN_NAMES, type ChainName } from '../chains.ts';

/** Parsed value, or what would have been allowed. */
export type ValueResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly allowed: string };

/** A parser of one env value (already trimmed). */
export type ValueParser<T> = (raw: string) => ValueResult<T>;

/** The value a parser gives. */
export type ParsedBy<P> = P extends ValueParser<infer T> ? T : never;

/** A parsed value. */
export const ok = <T>(value: T): ValueResult<T> => ({ ok: true, value });
/** A refused value: `allowed` says what would have been accepted. */
export const fail = <T>(allowed: string): ValueResult<T> => ({ ok: false, allowed });

/** Any non-empty string. */
export const nonEmptyString: ValueParser<string> = (raw) => (raw.length > 0 ? ok(raw) : fail('a non-empty string'));

/** Any text, the empty string included (a path that may be left unset). */
export const anyString: ValueParser<string> = (raw) => ok(raw);

/** Empty, or text matching `pattern` (an API key, say); `allowed` describes the pattern. */
export function emptyOrMatching(pattern: RegExp, allowed: string): ValueParser<string> {
  return (raw) => (raw === '' || pattern.test(raw) ? ok(raw) : fail(allowed));
}

/** An http(s) or ws(s) URL with one of the given protocols, trailing slashes dropped. */
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

/** A URL with one of the given protocols, or empty for "none". */
export function optionalUrl(protocols: readonly string[]): ValueParser<string | undefined> {
  const parse = url(protocols);
  return (raw) => (raw === '' ? ok(undefined) : parse(raw));
}

/**
 * One of a fixed set of words; `anyCase` also takes them in any case (a strategy's keys, whose
 * words are lower case) and gives the listed spelling.
 */
export function oneOf<T extends string>(choices: readonly T[], options: { readonly anyCase?: boolean } = {}): ValueParser<T> {
  const allowed = `one of ${choices.join(', ')}`;
  return (raw) => {
    const word = options.anyCase === true ? raw.toLowerCase() : raw;
    const found = choices.find((choice) => choice === word);
    return found === undefined ? fail(allowed) : ok(found);
  };
}

/** A chain name. */
export const chainName: ValueParser<ChainName> = oneOf(CHAIN_NAMES);

/** A keyword (`auto`, `off`, `inf`…) that parses to itself, or what `parse` accepts; `allowed` names both. */
export function keywordOr<K extends string, T>(keyword: K, parse: ValueParser<T>, allowed: string, options: { readonly anyCase?: boolean } = {}): ValueParser<K | T> {
  return (raw) => {
    if ((options.anyCase === true ? raw.toLowerCase() : raw) === keyword) return ok(keyword);
    const parsed = parse(raw);
    return parsed.ok ? parsed : fail(allowed);
  };
}

/** An integer in [min, max]. */
export function integer(min: number, max: number): ValueParser<number> {
  const allowed = `an integer from ${min} to ${max}`;
  return (raw) => {
    if (!/^-?\d+$/.test(raw)) return fail(allowed);
    const value = Number(raw);
    return value >= min && value <= max ? ok(value) : fail(allowed);
  };
}

/** A decimal amount as written and as a number: the text feeds exact base-unit math. */
export interface DecimalValue {
  readonly text: string;
  readonly value: number;
}

function decimalRange(min: number, max: number, unit: string): string {
  return `a decimal number from ${min} to ${max}${unit === '' ? '' : ` ${unit}`} (plain digits, e.g. 1.25)`;
}

/** A plain decimal number in [min, max], kept as its text too. */
export function decimal(min: number, max: number, unit = ''): ValueParser<DecimalValue> {
  const allowed = decimalRange(min, max, unit);
  return (raw) => {
    if (!/^\d+(\.\d+)?$/.test(raw)) return fail(allowed);
    const value = Number(raw);
    return value >= min && value <= max ? ok({ text: raw, value }) : fail(allowed);
  };
}

/** A keyword (e.g. `auto`, `off`) or a plain decimal number in [min, max]. */
export function keywordOrDecimal<K extends string>(keyword: K, min: number, max: number, unit = ''): ValueParser<K | DecimalValue> {
  return keywordOr(keyword, decimal(min, max, unit), `${keyword}, or ${decimalRange(min, max, unit)}`);
}

/** A decimal number with an optional minus sign in [min, max] (a basis, which may be negative). */
export function signedDecimal(min: number, max: number, unit = ''): ValueParser<number> {
  const allowed = `a signed decimal number${unit === '' ? '' : ` of ${unit}`} from ${min} to ${max}`;
  return (raw) => {
    if (!/^-?\d+(\.\d+)?$/.test(raw)) return fail(allowed);
    const value = Number(raw);
    return value >= min && value <= max ? ok(value) : fail(allowed);
  };
}

/** Bounds of a strategy's numeric key. */
export interface NumberBounds {
  readonly min?: number;
  readonly max?: number;
  /** The minimum itself is not allowed (e.g. a risk aversion must be > 0). */
  readonly minExclusive?: boolean;
  readonly integer?: boolean;
  /** Unit appended to the "allowed" sentence. */
  readonly unit?: string;
}

/** Describes the allowed range of a numeric key, e.g. "a number > 0 and ≤ 100 bps". */
function describeBounds(bounds: NumberBounds): string {
  const kind = bounds.integer === true ? 'an integer' : 'a number';
  const parts: string[] = [];
  if (bounds.min !== undefined) parts.push(`${bounds.minExclusive === true ? '>' : '≥'} ${bounds.min}`);
  if (bounds.max !== undefined) parts.push(`≤ ${bounds.max}`);
  const unit = bounds.unit === undefined || bounds.unit === '' ? '' : ` ${bounds.unit}`;
  return parts.length === 0 ? `${kind}${unit}` : `${kind} ${parts.join(' and ')}${unit}`;
}

/** Decimal text: optional sign, digits, optional fraction, optional exponent. */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A finite number within bounds. */
export function numberIn(bounds: NumberBounds = {}): ValueParser<number> {
  const allowed = describeBounds(bounds);
  return (raw) => {
    if (!NUMBER.test(raw)) return fail(allowed);
    const value = Number(raw);
    if (!Number.isFinite(value)) return fail(allowed);
    if (bounds.integer === true && !Number.isInteger(value)) return fail(allowed);
    if (bounds.min !== undefined && (bounds.minExclusive === true ? value <= bounds.min : value < bounds.min)) return fail(allowed);
    if (bounds.max !== undefined && value > bounds.max) return fail(allowed);
    return ok(value);
  };
}

/** A keyword (e.g. `auto`, `inf`, any case) that parses to itself, or a number within bounds. */
export function keywordOrNumber<K extends string>(keyword: K, bounds: NumberBounds): ValueParser<K | number> {
  return keywordOr(keyword, numberIn(bounds), `${keyword} or ${describeBounds(bounds)}`, { anyCase: true });
}

const TRUE_WORDS: ReadonlySet<string> = new Set(['true', '1', 'on', 'yes']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', '0', 'off', 'no']);

/** true/false, 1/0, on/off, yes/no (any case). */
export const boolean: ValueParser<boolean> = (raw) => {
  const word = raw.toLowerCase();
  if (TRUE_WORDS.has(word)) return ok(true);
  if (FALSE_WORDS.has(word)) return ok(false);
  return fail('true/false, 1/0, on/off or yes/no');
};

const FELT_LIMIT = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** A Starknet address: 0x-hex felt, 1–64 hex digits, below the field prime. Normalised to lowercase. */
export const address: ValueParser<string> = (raw) => {
  const allowed = 'a 0x-prefixed hex Starknet address (1 to 64 hex digits)';
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(raw)) return fail(allowed);
  return BigInt(raw) < FELT_LIMIT ? ok(raw.toLowerCase()) : fail(allowed);
};

/** An address, or empty for "the chain's default" (EXCHANGE_ADDRESS, CORE_ADDRESS, …). */
export const optionalAddress: ValueParser<string | undefined> = (raw) => (raw === '' ? ok(undefined) : address(raw));

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

/** `unix:PATH`: a Unix socket path (the remote signer's). Returns the path. */
export const unixSocket: ValueParser<string> = (raw) =>
  /^unix:.+/.test(raw) ? ok(raw.slice('unix:'.length)) : fail('unix:PATH, the socket of `akira-mm signer serve`');
