/**
 * Every key of a pair's env file: its parser, default, unit and meaning. This table is the one
 * source for validation, for `config/example.env` and for the README's key list (a test keeps
 * them in step). Key names are a contract with users' env files: add, never rename.
 */
import * as v from './values.ts';

/** Description and parser of one env key. */
export interface KeySpec<T = unknown> {
  readonly key: string;
  /** Default as it would be written in the file; undefined = required. */
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
  readonly parse: v.ValueParser<T>;
}

function spec<T>(entry: KeySpec<T>): KeySpec<T> {
  return entry;
}

/** The keys every pair's env file may set, in documentation order. */
export const CONFIG_KEYS = {
  EXCHANGE_HTTP_URL: spec({
    key: 'EXCHANGE_HTTP_URL',
    default: 'http://127.0.0.1:8080',
    unit: 'URL',
    doc: 'REST base URL: https://api.layerakira.xyz (mainnet), https://api-testnet.layerakira.xyz (sepolia), or a running `akira-mm sim`',
    parse: v.url(['http:', 'https:']),
  }),
  EXCHANGE_WS_URL: spec({
    key: 'EXCHANGE_WS_URL',
    default: 'ws://127.0.0.1:8080/ws',
    unit: 'URL',
    doc: 'WebSocket URL: wss://api.layerakira.xyz/ws (mainnet), wss://api-testnet.layerakira.xyz/ws (sepolia), or the sim',
    parse: v.url(['ws:', 'wss:']),
  }),
  CHAIN: spec({
    key: 'CHAIN',
    default: 'mainnet',
    unit: 'mainnet|sepolia',
    doc: 'Chain: picks the chain id, contract addresses and token table that go into every signature',
    parse: v.chainName,
  }),
  TRADING_ACCOUNT: spec({
    key: 'TRADING_ACCOUNT',
    default: undefined,
    unit: '0x address',
    doc: 'Your trading account (the `maker` of every order)',
    parse: v.address,
  }),
  SIGNER_PRIVATE_KEY: spec({
    key: 'SIGNER_PRIVATE_KEY',
    default: undefined,
    unit: '0x hex',
    doc: 'Stark private key of the signer bound to the account, in plain text (dev and sim only; for real money use SIGNER_KEYSTORE or SIGNER_REMOTE). Exactly one of SIGNER_PRIVATE_KEY, SIGNER_PRIVATE_KEY_FILE, SIGNER_KEYSTORE, SIGNER_REMOTE. Never logged; errors print <redacted>; a file holding it must be chmod 600 (or --insecure-permissions)',
    secret: true,
    optional: true,
    parse: v.privateKey,
  }),
  SIGNER_KEYSTORE: spec({
    key: 'SIGNER_KEYSTORE',
    default: undefined,
    unit: 'path',
    doc: 'Encrypted keystore (Web3 Secret Storage v3, as `akira-mm keys new --keystore` and starkli write it) holding the signer key; relative to this file; must be chmod 600',
    optional: true,
    environment: true,
    parse: v.nonEmptyString,
  }),
  SIGNER_KEYSTORE_PASSWORD: spec({
    key: 'SIGNER_KEYSTORE_PASSWORD',
    default: undefined,
    unit: 'text',
    doc: 'Password of SIGNER_KEYSTORE; prefer SIGNER_KEYSTORE_PASSWORD_FILE, or leave both unset to be asked on the terminal without echo',
    secret: true,
    optional: true,
    parse: v.nonEmptyString,
  }),
  SIGNER_REMOTE: spec({
    key: 'SIGNER_REMOTE',
    default: undefined,
    unit: 'unix:PATH',
    doc: 'Sign through `akira-mm signer serve` on this Unix socket: the daemon then holds no key at all',
    optional: true,
    environment: true,
    parse: v.unixSocket,
  }),
  WITHDRAW_ALLOWED_RECEIVERS: spec({
    key: 'WITHDRAW_ALLOWED_RECEIVERS',
    default: '',
    unit: '0x addresses',
    doc: 'The only addresses the signer will sign a withdrawal to, comma-separated; empty = never withdraw. Read by the signer that holds the key (in-process or `signer serve`)',
    parse: v.addressList,
  }),
  BASE: spec({ key: 'BASE', default: undefined, unit: 'symbol', doc: 'Base token of the pair, e.g. ETH', parse: v.tokenSymbol }),
  QUOTE: spec({ key: 'QUOTE', default: undefined, unit: 'symbol', doc: 'Quote token of the pair, e.g. USDC', parse: v.tokenSymbol }),
  ECOSYSTEM_BOOK: spec({
    key: 'ECOSYSTEM_BOOK',
    default: 'true',
    unit: 'bool',
    doc: 'Quote on the ecosystem book (true) or the router book (false)',
    parse: v.boolean,
  }),
  STRATEGY: spec({
    key: 'STRATEGY',
    default: 'ladder',
    unit: 'name',
    doc: 'Quoting strategy: ladder, avellaneda-stoikov, glft or xemm (xemm needs HEDGE; their own keys are listed below)',
    parse: v.nonEmptyString,
  }),
  METRICS_PORT: spec({
    key: 'METRICS_PORT',
    default: '9464',
    unit: 'port',
    doc: 'Prometheus /metrics and /health port on 127.0.0.1 unless METRICS_HOST says otherwise; 0 disables',
    parse: v.integer(0, 65535),
  }),
  METRICS_HOST: spec({
    key: 'METRICS_HOST',
    default: '127.0.0.1',
    unit: 'host',
    doc: 'Interface the metrics server binds to (0.0.0.0 inside a container)',
    parse: v.nonEmptyString,
  }),
  GAS_PRICE_MULTIPLIER: spec({
    key: 'GAS_PRICE_MULTIPLIER',
    default: '1.25',
    unit: '×',
    doc: 'max_gas_price = latest /gas/price × this (SPEC §5); covers gas moves between signing and settlement',
    parse: v.decimal(1, 10),
  }),
  WITHDRAW_HASH: spec({
    key: 'WITHDRAW_HASH',
    default: 'snip12',
    unit: 'snip12|poseidon',
    doc: 'Withdraw signature scheme: SNIP-12 rev 0 typed data (current contracts) or the legacy Poseidon hash',
    parse: v.oneOf(['snip12', 'poseidon'] as const),
  }),
  LOG_LEVEL: spec({
    key: 'LOG_LEVEL',
    default: 'info',
    unit: 'level',
    doc: 'Log level: fatal, error, warn, info, debug, trace or silent',
    parse: v.oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  }),
  // ── venue contracts and checks (issue 11). Empty = the chain's default in src/core/chains.ts,
  // whose sources are cited there; docs/venue.md says which of them are verified.
  EXCHANGE_ADDRESS: spec({
    key: 'EXCHANGE_ADDRESS',
    default: '',
    unit: '0x address',
    doc: "Executor contract hashed into every order as `exchange`; empty = the chain's (mainnet 0x7e684c…04e16, sepolia 0x1315a7…139c2)",
    parse: v.optionalAddress,
  }),
  CORE_ADDRESS: spec({
    key: 'CORE_ADDRESS',
    default: '',
    unit: '0x address',
    doc: "Core contract: hashed into withdraws, read over STARKNET_RPC_URL; empty = the chain's (mainnet 0x51c728…ed024, sepolia 0x3593d9…c42bf)",
    parse: v.optionalAddress,
  }),
  ROUTER_ADDRESS: spec({
    key: 'ROUTER_ADDRESS',
    default: '',
    unit: '0x address',
    doc: "Router contract; empty = the chain's (mainnet 0x65b58d…57353, sepolia 0x32ef0b…2bd4)",
    parse: v.optionalAddress,
  }),
  FEE_RECIPIENT: spec({
    key: 'FEE_RECIPIENT',
    default: '',
    unit: '0x address',
    doc: "The exchange's fee recipient signed into every order (else WRONG_FEE_RECIPIENT); empty = 0x051d99…85d4d, published for sepolia only: check it with STARKNET_RPC_URL",
    parse: v.optionalAddress,
  }),
  STARKNET_RPC_URL: spec({
    key: 'STARKNET_RPC_URL',
    default: '',
    unit: 'URL',
    doc: 'Starknet JSON-RPC node; when set, start refuses to run unless the core contract agrees on the fee recipient, the bound signer and the chain id (`akira-mm sim` serves one on its port + 1)',
    parse: v.optionalUrl(['http:', 'https:']),
  }),
  FAST_CANCEL: spec({
    key: 'FAST_CANCEL',
    default: 'off',
    unit: 'on|off',
    doc: 'Obtain a fast-sign key at start (renewed hourly) and send cancels and cancel-alls with it instead of a Stark signature',
    parse: v.boolean,
  }),
  STATE_DIR: spec({
    key: 'STATE_DIR',
    default: '',
    unit: 'path',
    doc: 'Where the daemon keeps its crash journal and account lock, one per venue and account (`--state-dir` overrides); empty = $XDG_STATE_HOME/akira-mm or ~/.local/state/akira-mm. In a container, mount a volume here',
    parse: v.anyString,
  }),
  SIGNING_WORKERS: spec({
    key: 'SIGNING_WORKERS',
    default: '0',
    unit: 'threads',
    doc: 'Worker threads that pre-sign orders; 0 pre-signs on the event loop between events (each thread costs ~30 MB of RSS: worth it only for bursts of dozens of orders, RELIABILITY.md "Lean daemon")',
    parse: v.integer(0, 16),
  }),
} as const;

/** Names of the keys the config layer owns. */
export type ConfigKey = keyof typeof CONFIG_KEYS;

/** The specs as a list, in documentation order. */
export const CONFIG_KEY_LIST: readonly KeySpec[] = Object.values(CONFIG_KEYS);
