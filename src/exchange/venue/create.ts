/**
 * Wires a {@link LiveVenue} from a pair's connection settings: the REST client (one undici pool
 * for the base URL), the signer with a worker pool for pre-signing bursts, and the stream. The
 * CLI maps the env file onto {@link LiveVenueConfig}; this layer never reads config itself
 * (ARCHITECTURE: exchange imports only core). The in-process signer always enforces a signing
 * policy (by default: this pair, this account, no withdrawals); a remote signer is handed in
 * ready-made and enforces its own.
 */
import { MmError, getChain, withContracts, type ChainInfo, type ChainName, type Clock, type ContractOverrides, type ENGINE_KEYS, type Logger, type Rng, type Secret, type SettingsOf } from '../../core/index.ts';
import { RateLimitCounter, RestClient, type HttpOptions } from '../client/index.ts';
import { Signer, SigningPolicy, SigningPool, type SigningAudit, type SigningPolicySpec } from '../signer/index.ts';
import type { StreamTiming } from '../stream/index.ts';
import { WireAnomalyCounter } from '../wire/anomalies.ts';
import type { ConfirmSettings } from './account-actions.ts';
import type { FastSignSigner } from './fast-sign-session.ts';
import { IdleOrderSigner } from './idle-signer.ts';
import { LiveVenue, type LiveVenueSettings } from './live-venue.ts';
import type { BatchOrderSigner, VenueSigner } from './signer-port.ts';

/** Collaborators of {@link createLiveVenue}. */
export interface LiveVenueFactoryDeps {
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  /**
   * A signer that holds the key elsewhere (`RemoteSigner`), with what signs fast-sign challenges
   * (FAST_CANCEL); the venue closes `batchSigner` on stop.
   */
  readonly signer?: { readonly signer: VenueSigner; readonly batchSigner?: BatchOrderSigner; readonly fastSignSigner?: FastSignSigner };
  /** Logs and counts the in-process signer's refusals. */
  readonly audit?: SigningAudit;
}

type LiveVenueKeySettings = SettingsOf<typeof ENGINE_KEYS, 'live-venue'>;

/** Connection, key and gas settings of one pair (env keys in brackets; FEE_TOKEN, GAS_REFRESH_S, CONVERSION_MARGIN_BPS and ORDER_TTL_S as declared for `live-venue`). */
export interface LiveVenueConfig extends LiveVenueKeySettings {
  /** [EXCHANGE_HTTP_URL] */
  readonly httpUrl: string;
  /** [EXCHANGE_WS_URL] */
  readonly wsUrl: string;
  /** [CHAIN] */
  readonly chain: ChainName;
  /** [TRADING_ACCOUNT] 0x-hex. */
  readonly tradingAccount: string;
  /** [SIGNER_PRIVATE_KEY, _FILE, or the decrypted SIGNER_KEYSTORE]; omitted when `deps.signer` is given. */
  readonly signerPrivateKey?: Secret;
  /**
   * What the in-process signer agrees to sign. Default: this pair with no notional limit, this
   * account, this chain and its contracts, no withdrawals.
   */
  readonly signingPolicy?: SigningPolicySpec;
  /** [BASE] / [QUOTE] */
  readonly base: string;
  readonly quote: string;
  /** [ECOSYSTEM_BOOK] */
  readonly ecosystemBook: boolean;
  /** [GAS_PRICE_MULTIPLIER] */
  readonly gasPriceMultiplier: number;
  /** [WITHDRAW_HASH] */
  readonly withdrawHash: 'snip12' | 'poseidon';
  /**
   * [EXCHANGE_ADDRESS] [CORE_ADDRESS] [ROUTER_ADDRESS] [FEE_RECIPIENT]: the contract constants
   * hashed into every request, when the pair file overrides the chain's defaults.
   */
  readonly contracts?: ContractOverrides;
  /** [FAST_CANCEL] obtain a fast-sign key at start and cancel without signatures. Default false. */
  readonly fastCancel?: boolean;
  /** Bounds of the queued-action confirmations (tests shorten them). Default DEFAULT_CONFIRM. */
  readonly confirm?: ConfirmSettings;
  /** [STARKNET_RPC_URL] check the core contract's constants at start. */
  readonly starknetRpcUrl?: string;
  /**
   * Signing worker threads for pre-signing bursts; 0 pre-signs on the event loop in idle slices
   * ({@link IdleOrderSigner}). Default 0: a worker costs ~30 MB of RSS for ~0.4 ms of work per
   * order (RELIABILITY.md "Lean daemon").
   */
  readonly signingWorkers?: number;
  readonly http?: HttpOptions;
  readonly streamTiming?: StreamTiming;
}

/** The chain's constants with the pair file's contract addresses in place of the defaults. */
export function chainWithContracts(name: ChainName, overrides: ContractOverrides = {}): ChainInfo {
  return withContracts(getChain(name), overrides);
}

/**
 * Builds the live venue; nothing connects until `start()`.
 * @throws MmError `CORE_INVARIANT` with neither a private key nor a ready signer.
 */
export function createLiveVenue(config: LiveVenueConfig, deps: LiveVenueFactoryDeps): LiveVenue {
  const { chain, account, signer, batchSigner, fastSignSigner, logger, anomalies, rateLimits, rest } = connectionOf(config, deps);
  return new LiveVenue(
    liveVenueSettingsOf(config, chain, account),
    {
      rest,
      signer,
      ...(batchSigner === undefined ? {} : { batchSigner }),
      clock: deps.clock,
      rng: deps.rng.fork('venue'),
      logger,
      anomalies,
      rateLimits,
      ...(config.fastCancel === true && fastSignSigner !== undefined ? { fastSignSigner } : {}),
    },
  );
}

/** What one login serves: the chain, the account, the signer and the REST client over one pool. */
export function connectionOf(config: LiveVenueConfig, deps: LiveVenueFactoryDeps) {
  const chain = chainWithContracts(config.chain, config.contracts);
  const account = BigInt(config.tradingAccount);
  const { signer, batchSigner, fastSignSigner } = deps.signer ?? inProcessSigner(config, account, chain, deps.audit, deps.clock);
  const logger = deps.logger.child({ component: 'exchange' });
  const anomalies = new WireAnomalyCounter(logger);
  const rateLimits = new RateLimitCounter();
  const rest = new RestClient({
    anomalies: anomalies.sink,
    rateLimits: rateLimits.sink,
    baseUrl: config.httpUrl,
    chain,
    account,
    signer,
    clock: deps.clock,
    rng: deps.rng.fork('rest'),
    logger,
    ...(config.http === undefined ? {} : { http: config.http }),
  });
  return { chain, account, signer, batchSigner, fastSignSigner, logger, anomalies, rateLimits, rest };
}

/** The live venue's settings from a pair's connection settings (also used by `AccountSession`). */
export function liveVenueSettingsOf(config: LiveVenueConfig, chain: ChainInfo, account: bigint): LiveVenueSettings {
  return {
    chain,
    account,
    pair: { base: config.base, quote: config.quote },
    ecosystemBook: config.ecosystemBook,
    feeToken: config.feeToken,
    gasPriceMultiplier: config.gasPriceMultiplier,
    gasRefreshMs: config.gasRefreshS * 1000,
    conversionMarginBps: config.conversionMarginBps,
    orderTtlS: config.orderTtlS,
    wsUrl: config.wsUrl,
    ...(config.confirm === undefined ? {} : { confirm: config.confirm }),
    ...(config.starknetRpcUrl === undefined ? {} : { starknetRpcUrl: config.starknetRpcUrl }),
    ...(config.streamTiming === undefined ? {} : { streamTiming: config.streamTiming }),
  };
}

/** The in-process signer (with its worker pool unless `signingWorkers` is 0), under its policy. */
export function inProcessSigner(
  config: LiveVenueConfig,
  account: bigint,
  chain: ChainInfo,
  audit: SigningAudit | undefined,
  clock: Clock,
): { signer: VenueSigner; batchSigner?: BatchOrderSigner; fastSignSigner: FastSignSigner } {
  if (config.signerPrivateKey === undefined) throw new MmError('CORE_INVARIANT', 'a live venue needs a private key or a ready signer');
  const spec = config.signingPolicy ?? {
    chain: config.chain,
    account,
    pairs: [{ base: config.base, quote: config.quote }],
    withdrawReceivers: [],
    ...(config.contracts === undefined ? {} : { contracts: config.contracts }),
  };
  const signerOptions = { privateKey: config.signerPrivateKey, account, chain, withdrawHash: config.withdrawHash, policy: new SigningPolicy(spec, audit) };
  const workers = config.signingWorkers ?? 0;
  // Zero workers: sign inline, and pre-sign in the event loop's idle slices.
  if (workers === 0) {
    const signer = new Signer(signerOptions);
    return { signer, batchSigner: new IdleOrderSigner(signer, clock, signer.policy), fastSignSigner: signer };
  }
  const pool = new SigningPool({ ...signerOptions, size: workers });
  return { signer: pool.signer, batchSigner: pool, fastSignSigner: pool.signer };
}
