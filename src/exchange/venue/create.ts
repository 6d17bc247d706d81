/**
 * Wires a {@link LiveVenue} from a pair's connection settings: the REST client (one undici pool
 * for the base URL), the signer with a worker pool for pre-signing bursts, and the stream. The
 * CLI maps the env file onto {@link LiveVenueConfig}; this layer never reads config itself
 * (ARCHITECTURE: exchange imports only core). The in-process signer always enforces a signing
 * policy (by default: this pair, this account, no withdrawals); a remote signer is handed in
 * ready-made and enforces its own.
 */
import { MmError, getChain, type ChainName, type Clock, type Logger, type Rng, type Secret } from '../../core/index.ts';
import { RestClient, type HttpOptions } from '../client/index.ts';
import { Signer, SigningPolicy, SigningPool, type SigningAudit, type SigningPolicySpec } from '../signer/index.ts';
import type { StreamTiming } from '../stream/index.ts';
import { LiveVenue } from './live-venue.ts';
import type { BatchOrderSigner, VenueSigner } from './signer-port.ts';

/** Collaborators of {@link createLiveVenue}. */
export interface LiveVenueFactoryDeps {
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  /** A signer that holds the key elsewhere (`RemoteSigner`); the venue closes `batchSigner` on stop. */
  readonly signer?: { readonly signer: VenueSigner; readonly batchSigner?: BatchOrderSigner };
  /** Logs and counts the in-process signer's refusals. */
  readonly audit?: SigningAudit;
}

/** Connection, key and gas settings of one pair (env keys in brackets). */
export interface LiveVenueConfig {
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
   * account, this chain, no withdrawals.
   */
  readonly signingPolicy?: SigningPolicySpec;
  /** [BASE] / [QUOTE] */
  readonly base: string;
  readonly quote: string;
  /** [ECOSYSTEM_BOOK] */
  readonly ecosystemBook: boolean;
  /** [FEE_TOKEN] */
  readonly feeToken: string;
  /** [GAS_PRICE_MULTIPLIER] */
  readonly gasPriceMultiplier: number;
  /** [GAS_REFRESH_S] */
  readonly gasRefreshS: number;
  /** [CONVERSION_MARGIN_BPS] */
  readonly conversionMarginBps: number;
  /** [ORDER_TTL_S] */
  readonly orderTtlS: number;
  /** [WITHDRAW_HASH] */
  readonly withdrawHash: 'snip12' | 'poseidon';
  /** Signing worker threads; 0 signs inline only (no pre-signing). Default 2. */
  readonly signingWorkers?: number;
  readonly http?: HttpOptions;
  readonly streamTiming?: StreamTiming;
}

/**
 * Builds the live venue; nothing connects until `start()`.
 * @throws MmError `CORE_INVARIANT` with neither a private key nor a ready signer.
 */
export function createLiveVenue(config: LiveVenueConfig, deps: LiveVenueFactoryDeps): LiveVenue {
  const chain = getChain(config.chain);
  const account = BigInt(config.tradingAccount);
  const { signer, batchSigner } = deps.signer ?? inProcessSigner(config, account, deps.audit);
  const logger = deps.logger.child({ component: 'exchange' });
  const rest = new RestClient({
    baseUrl: config.httpUrl,
    chain,
    account,
    signer,
    clock: deps.clock,
    rng: deps.rng.fork('rest'),
    logger,
    ...(config.http === undefined ? {} : { http: config.http }),
  });
  return new LiveVenue(
    {
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
      ...(config.streamTiming === undefined ? {} : { streamTiming: config.streamTiming }),
    },
    {
      rest,
      signer,
      ...(batchSigner === undefined ? {} : { batchSigner }),
      clock: deps.clock,
      rng: deps.rng.fork('venue'),
      logger,
    },
  );
}

/** The in-process signer (with its worker pool unless `signingWorkers` is 0), under its policy. */
function inProcessSigner(config: LiveVenueConfig, account: bigint, audit: SigningAudit | undefined): { signer: VenueSigner; batchSigner?: BatchOrderSigner } {
  if (config.signerPrivateKey === undefined) throw new MmError('CORE_INVARIANT', 'a live venue needs a private key or a ready signer');
  const chain = getChain(config.chain);
  const spec = config.signingPolicy ?? { chain: config.chain, account, pairs: [{ base: config.base, quote: config.quote }], withdrawReceivers: [] };
  const signerOptions = { privateKey: config.signerPrivateKey, account, chain, withdrawHash: config.withdrawHash, policy: new SigningPolicy(spec, audit) };
  const workers = config.signingWorkers ?? 2;
  // Zero workers: sign inline only, and skip pre-signing (it would block the loop as much).
  if (workers === 0) return { signer: new Signer(signerOptions) };
  const pool = new SigningPool({ ...signerOptions, size: workers });
  return { signer: pool.signer, batchSigner: pool };
}
