/**
 * How an env key is declared, once: its name, default (as written in an env file), unit, meaning,
 * parser (which gives its type and validates it) and the components that read it, each with the
 * field the value becomes in that component's settings and the unit conversion on the way.
 * The settings a component receives are derived from these declarations: `SettingsOf` gives
 * their type, `settingsOf` (`build.ts`) builds them, so a new key is one edit in its table and
 * the compiler carries its type to the reader.
 *
 * Two shapes of table:
 * - a component table (`defineKeys`), keyed by env name, whose keys say who reads them
 *   (`readers`): the config layer's, the engine's, the reference's and the hedge's keys;
 * - a strategy's table (`envKey`), keyed by parameter name: its strategy reads every key, and
 *   the property is the parameter (`ParamsOf`, `readKeys`).
 * Key names are a contract with users' env files: add, never rename.
 */
import type { ValueParser } from './values.ts';

/** The components whose settings come from env keys. */
export type Reader =
  /** The pair's own settings (`PairConfig`, src/config): connection, pair, metrics, logs. */
  | 'pair'
  /** Which signer holds the key (`SignerSource`): exactly one of its keys is set. */
  | 'signer'
  /** Contract addresses replacing the chain's (`ContractOverrides`). */
  | 'contracts'
  /** The live venue's gas and order handling (`LiveVenueConfig`, src/exchange). */
  | 'live-venue'
  /** The engine's own knobs (`EngineSettings`). */
  | 'engine'
  /** The base balance the engine measures position from (`EngineSettings.inventoryTarget`). */
  | 'inventory-target'
  /** The band a live order may drift in before it is replaced (`RequoteTolerance`). */
  | 'requote'
  /** The outbound request budget (`OutboundBudget`). */
  | 'outbound'
  /** The risk caps and the kill switch (`ConfiguredRiskLimits`). */
  | 'risk'
  /** A pair's share of its account (`AccountPair`). */
  | 'account-pair'
  /** Limits over every pair of one account. */
  | 'account-limits'
  /** The reference market's feed (`createReferenceFeed`). */
  | 'reference-feed'
  /** Pricing from the reference (`ReferenceSettings`, the engine's reference pricer). */
  | 'reference'
  /** The hedge venue: where and how it is reached. */
  | 'hedge-venue'
  /** The hedge venue's API key and how requests are signed. */
  | 'hedge-credentials'
  /** How fills are hedged (`HedgerSettings`). */
  | 'hedger'
  /** Where alerts go: webhook, Telegram, Slack, Discord (`AlertChannelKeys`, src/core/settings/alert-keys.ts). */
  | 'alert-channels'
  /** What alerts and how often (`AlertPolicy`, read by the notifier in src/ops). */
  | 'alert-policy';

/** Token amounts to base units, once the pair's decimals are known. */
export interface TokenUnits {
  /** Base tokens ("0.5") → base units, rounded down. */
  base(text: string): bigint;
  /** Quote tokens → quote units, rounded down. */
  quote(text: string): bigint;
}

/** Where a parsed value lands in one reader's settings, converted to the reader's unit. */
export interface Landing<T, V = unknown> {
  readonly field: string;
  /** E.g. % → fraction, s → ms, tokens → base units (`units`, known once the pair's decimals are). */
  convert(value: T, units: TokenUnits): V;
}

/** Each reader of a key: the field it becomes (as parsed), or a {@link Landing}. */
export type Readers<T> = { readonly [R in Reader]?: string | Landing<T> };

/** One env key. */
export interface KeySpec<T = unknown> {
  readonly key: string;
  /** Default as it would be written in the file; undefined = required (unless `optional`). */
  readonly default: string | undefined;
  readonly unit: string;
  readonly doc: string;
  /**
   * Never echo the value (errors print `<redacted>`). A secret key may also be given as
   * `<KEY>_FILE=path` (Docker and Kubernetes secrets) and may come from the process environment
   * (deleted from it once read); a file holding it must be chmod 600.
   */
  readonly secret?: boolean;
  /** No default, and may be left unset (one of several alternatives, say). */
  readonly optional?: boolean;
  /** May also come from the process environment when the file does not set it (paths, sockets). */
  readonly environment?: boolean;
  readonly parse: ValueParser<T>;
  /** Who reads the value; absent in a strategy's table, whose strategy reads every key. */
  readonly readers?: Readers<T>;
}

/** A declaration in a component table: a key spec without its name, which is the table's property. */
export type KeyDeclaration<T> = Omit<KeySpec<T>, 'key' | 'parse' | 'readers'> & { readonly readers: Readers<T> };

/**
 * One key of a component table. The parser comes first so that its type is known when the
 * readers' conversions are checked.
 */
export function key<T, const D extends KeyDeclaration<T>>(parse: ValueParser<T>, declaration: D): D & { readonly parse: ValueParser<T> } {
  return { ...declaration, parse };
}

/** A component table: each declaration gets its property as its `key`. */
// The constraint is loose on purpose: a tighter one would become the contextual type of each
// `key(…)` call and hide the parser's type from the readers' conversions; `key` checks each one.
export function defineKeys<const Table extends Readonly<Record<string, object>>>(table: Table): { readonly [K in keyof Table & string]: Table[K] & { readonly key: K } } {
  return Object.fromEntries(Object.entries(table).map(([name, declaration]) => [name, { key: name, ...declaration }])) as never;
}

/** One key of a strategy's table (keyed by parameter name), keeping its value type. */
export function envKey<T>(spec: KeySpec<T> & { readonly default: string }): KeySpec<T> & { readonly default: string } {
  return spec;
}

/** Any table of key specs. */
export type KeyTable = Readonly<Record<string, KeySpec>>;

/** A key's parsed value; an optional key (no default) may be unset. */
type ParsedOf<S> = S extends { readonly parse: ValueParser<infer T> } ? (S extends { readonly optional: true } ? T | undefined : T) : never;
type ReadersOf<S> = S extends { readonly readers: infer R } ? R : never;
type FieldOf<S, R extends Reader> = R extends keyof ReadersOf<S>
  ? ReadersOf<S>[R] extends infer L
    ? L extends string
      ? L
      : L extends { readonly field: infer F extends string }
        ? F
        : never
    : never
  : never;
type LandedOf<S, R extends Reader> = R extends keyof ReadersOf<S>
  ? ReadersOf<S>[R] extends infer L
    ? L extends string
      ? ParsedOf<S>
      : L extends { convert(...args: never[]): infer V }
        ? V
        : never
    : never
  : never;

/** Every key's parsed value, by key name. */
export type KeyValues<Table> = { readonly [K in keyof Table]: ParsedOf<Table[K]> };

/** The parsed values of the keys that are not secret (what a loaded config may keep). */
export type PublicKeyValues<Table> = { readonly [K in keyof Table as Table[K] extends { readonly secret: true } ? never : K]: ParsedOf<Table[K]> };

/** The parsed values of the keys one reader (or any of several) reads. */
export type ValuesReadBy<Table, R extends Reader> = { readonly [K in keyof Table as R extends keyof ReadersOf<Table[K]> ? K : never]: ParsedOf<Table[K]> };

/** The settings a reader receives from a table: one field per key it reads, in its unit. */
export type SettingsOf<Table, R extends Reader> = { readonly [K in keyof Table as FieldOf<Table[K], R>]: LandedOf<Table[K], R> };

/** A strategy's parameters: one per key of its table, as parsed. */
export type ParamsOf<Table> = { -readonly [Name in keyof Table]: ParsedOf<Table[Name]> };

/** The `keys` listing of a `StrategyDefinition`, in table order. */
export function describeKeys(table: Readonly<Record<string, KeySpec & { readonly default: string }>>): { key: string; default: string; unit: string; doc: string }[] {
  return Object.values(table).map(({ key: name, default: byDefault, unit, doc }) => ({ key: name, default: byDefault, unit, doc }));
}
