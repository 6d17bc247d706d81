/**
 * The config layer's own keys of a pair's env file: connection, account, signer, pair, metrics,
 * logs, contracts. With the engine's, the reference's and the hedge's (src/core/settings) and
 * each strategy's, these tables are the one source for validation, for the settings each reader
 * receives and for `config/example.env` (a test keeps it in step). Key names are a contract with
 * users' env files: add, never rename.
 */
import { defineKeys, key, values as v, type KeySpec, type SettingsOf } from '../core/index.ts';

/** The keys every pair's env file may set, in documentation order. */
export const CONFIG_KEYS = defineKeys({
  EXCHANGE_HTTP_URL: key(v.url(['http:', 'https:']), {
    default: 'http://127.0.0.1:8080',
    unit: 'URL',
    doc: 'REST base URL: https://api.layerakira.xyz (mainnet), https://api-testnet.layerakira.xyz (sepolia), or a running `akira-mm sim`',
    readers: { pair: 'exchangeHttpUrl' },
  }),
  EXCHANGE_WS_URL: key(v.url(['ws:', 'wss:']), {
    default: 'ws://127.0.0.1:8080/ws',
    unit: 'URL',
    doc: 'WebSocket URL: wss://api.layerakira.xyz/ws (mainnet), wss://api-testnet.layerakira.xyz/ws (sepolia), or the sim',
    readers: { pair: 'exchangeWsUrl' },
  }),
  CHAIN: key(v.chainName, {
    default: 'mainnet',
    unit: 'mainnet|sepolia',
    doc: 'Chain: picks the chain id, contract addresses and token table that go into every signature',
    readers: { pair: 'chain' },
  }),
  TRADING_ACCOUNT: key(v.address, {
    default: undefined,
    unit: '0x address',
    doc: 'Your trading account (the `maker` of every order)',
    readers: { pair: 'tradingAccount' },
  }),
  SIGNER_PRIVATE_KEY: key(v.privateKey, {
    default: undefined,
    unit: '0x hex',
    doc: 'Stark private key of the signer bound to the account, in plain text (dev and sim only; for real money use SIGNER_KEYSTORE or SIGNER_REMOTE). Exactly one of SIGNER_PRIVATE_KEY, SIGNER_PRIVATE_KEY_FILE, SIGNER_KEYSTORE, SIGNER_REMOTE. Never logged; errors print <redacted>; a file holding it must be chmod 600 (or --insecure-permissions)',
    secret: true,
    optional: true,
    readers: { signer: 'privateKey' },
  }),
  SIGNER_KEYSTORE: key(v.nonEmptyString, {
    default: undefined,
    unit: 'path',
    doc: 'Encrypted keystore (Web3 Secret Storage v3, as `akira-mm keys new --keystore` and starkli write it) holding the signer key; relative to this file; must be chmod 600',
    optional: true,
    environment: true,
    readers: { signer: 'keystore' },
  }),
  SIGNER_KEYSTORE_PASSWORD: key(v.nonEmptyString, {
    default: undefined,
    unit: 'text',
    doc: 'Password of SIGNER_KEYSTORE; prefer SIGNER_KEYSTORE_PASSWORD_FILE, or leave both unset to be asked on the terminal without echo',
    secret: true,
    optional: true,
    readers: { signer: 'keystorePassword' },
  }),
  SIGNER_REMOTE: key(v.unixSocket, {
    default: undefined,
    unit: 'unix:PATH',
    doc: 'Sign through `akira-mm signer serve` on this Unix socket: the daemon then holds no key at all',
    optional: true,
    environment: true,
    readers: { signer: 'remote' },
  }),
  WITHDRAW_ALLOWED_RECEIVERS: key(v.addressList, {
    default: '',
    unit: '0x addresses',
    doc: 'The only addresses the signer will sign a withdrawal to, comma-separated; empty = never withdraw. Read by the signer that holds the key (in-process or `signer serve`)',
    readers: { pair: 'withdrawAllowedReceivers' },
  }),
  BASE: key(v.tokenSymbol, {
    default: undefined,
    unit: 'symbol',
    doc: 'Base token of the pair, e.g. ETH',
    readers: { pair: 'base' },
  }),
  QUOTE: key(v.tokenSymbol, {
    default: undefined,
    unit: 'symbol',
    doc: 'Quote token of the pair, e.g. USDC',
    readers: { pair: 'quote' },
  }),
  ECOSYSTEM_BOOK: key(v.boolean, {
    default: 'true',
    unit: 'bool',
    doc: 'Quote on the ecosystem book (true) or the router book (false)',
    readers: { pair: 'ecosystemBook' },
  }),
  STRATEGY: key(v.nonEmptyString, {
    default: 'ladder',
    unit: 'name',
    doc: 'Quoting strategy: ladder, avellaneda-stoikov, glft, xemm or tick-grid (xemm needs HEDGE; their own keys are listed below)',
    readers: { pair: 'strategy' },
  }),
  METRICS_PORT: key(v.integer(0, 65535), {
    default: '9464',
    unit: 'port',
    doc: 'Prometheus /metrics, /health and the live dashboard (/) port on 127.0.0.1 unless METRICS_HOST says otherwise; 0 disables',
    readers: { pair: 'metricsPort' },
  }),
  METRICS_HOST: key(v.nonEmptyString, {
    default: '127.0.0.1',
    unit: 'host',
    doc: 'Interface the metrics server binds to (0.0.0.0 inside a container)',
    readers: { pair: 'metricsHost' },
  }),
  GAS_PRICE_MULTIPLIER: key(v.decimal(1, 10), {
    default: '1.25',
    unit: '×',
    doc: 'max_gas_price = latest /gas/price × this (SPEC §5); covers gas moves between signing and settlement',
    readers: { pair: 'gasPriceMultiplier' },
  }),
  WITHDRAW_HASH: key(v.oneOf(['snip12', 'poseidon'] as const), {
    default: 'snip12',
    unit: 'snip12|poseidon',
    doc: 'Withdraw signature scheme: SNIP-12 rev 0 typed data (current contracts) or the legacy Poseidon hash',
    readers: { pair: 'withdrawHash' },
  }),
  LOG_LEVEL: key(v.oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const), {
    default: 'info',
    unit: 'level',
    doc: 'Log level: fatal, error, warn, info, debug, trace or silent',
    readers: { pair: 'logLevel' },
  }),
  // ── venue contracts and checks (issue 11). Empty = the chain's default in src/core/chains.ts,
  // whose sources are cited there; docs/venue.md says which of them are verified.
  EXCHANGE_ADDRESS: key(v.optionalAddress, {
    default: '',
    unit: '0x address',
    doc: "Executor contract hashed into every order as `exchange`; empty = the chain's (mainnet 0x7e684c…04e16, sepolia 0x1315a7…139c2)",
    readers: { contracts: 'executorAddress' },
  }),
  CORE_ADDRESS: key(v.optionalAddress, {
    default: '',
    unit: '0x address',
    doc: "Core contract: hashed into withdraws, read over STARKNET_RPC_URL; empty = the chain's (mainnet 0x51c728…ed024, sepolia 0x3593d9…c42bf)",
    readers: { contracts: 'coreAddress' },
  }),
  ROUTER_ADDRESS: key(v.optionalAddress, {
    default: '',
    unit: '0x address',
    doc: "Router contract; empty = the chain's (mainnet 0x65b58d…57353, sepolia 0x32ef0b…2bd4)",
    readers: { contracts: 'routerAddress' },
  }),
  FEE_RECIPIENT: key(v.optionalAddress, {
    default: '',
    unit: '0x address',
    doc: "The exchange's fee recipient signed into every order (else WRONG_FEE_RECIPIENT); empty = 0x051d99…85d4d, published for sepolia only: check it with STARKNET_RPC_URL",
    readers: { contracts: 'feeRecipient' },
  }),
  STARKNET_RPC_URL: key(v.optionalUrl(['http:', 'https:']), {
    default: '',
    unit: 'URL',
    doc: 'Starknet JSON-RPC node; when set, start refuses to run unless the core contract agrees on the fee recipient, the bound signer and the chain id (`akira-mm sim` serves one on its port + 1)',
    readers: { pair: 'starknetRpcUrl' },
  }),
  FAST_CANCEL: key(v.boolean, {
    default: 'off',
    unit: 'on|off',
    doc: 'Obtain a fast-sign key at start (renewed hourly) and send cancels and cancel-alls with it instead of a Stark signature',
    readers: { pair: 'fastCancel' },
  }),
  STATE_DIR: key(v.anyString, {
    default: '',
    unit: 'path',
    doc: 'Where the daemon keeps its crash journal and account lock, one per venue and account (`--state-dir` overrides); empty = $XDG_STATE_HOME/akira-mm or ~/.local/state/akira-mm. In a container, mount a volume here',
    readers: { pair: 'stateDir' },
  }),
  SIGNING_WORKERS: key(v.integer(0, 16), {
    default: '0',
    unit: 'threads',
    doc: 'Worker threads that pre-sign orders; 0 pre-signs on the event loop between events (each thread costs ~30 MB of RSS: worth it only for bursts of dozens of orders, RELIABILITY.md "Lean daemon")',
    readers: { pair: 'signingWorkers' },
  }),
});

/** Names of the keys the config layer owns. */
export type ConfigKey = keyof typeof CONFIG_KEYS;

/** The specs as a list, in documentation order. */
export const CONFIG_KEY_LIST: readonly KeySpec[] = Object.values(CONFIG_KEYS);

/** The pair's own settings, one per key read by `pair`. */
export type PairSettings = SettingsOf<typeof CONFIG_KEYS, 'pair'>;

/** The signer keys as set (each may be left unset; exactly one names the signer). */
export type SignerKeys = SettingsOf<typeof CONFIG_KEYS, 'signer'>;

/** EXCHANGE_ADDRESS, CORE_ADDRESS, ROUTER_ADDRESS and FEE_RECIPIENT: undefined = the chain's. */
export type ContractSettings = SettingsOf<typeof CONFIG_KEYS, 'contracts'>;
