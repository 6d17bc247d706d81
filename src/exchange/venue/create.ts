/**
 * Wires a {@link LiveVenue} from a pair's connection settings: the REST client (one undici pool
 * for the base URL), the signer with a worker pool for pre-signing bursts, and the stream. The
 * CLI maps the env file onto {@link LiveVenueConfig}; this layer never reads config itself
 * (ARCHITECTURE: exchange imports only core).
 */
import { getChain, withContracts, type ChainInfo, type ChainName, type Clock, type ContractOverrides, type Logger, type Rng, type Secret } from '../../core/index.ts';
import { RestClient, fastSignMessageHash, type HttpOptions } from '../client/index.ts';
import { Signer, SigningPool, parsePrivateKey, signHash } from '../signer/index.ts';
import type { StreamTiming } from '../stream/index.ts';
import { WireAnomalyCounter } from '../wire/anomalies.ts';
import type { ConfirmSettings } from './account-actions.ts';
import type { FastSignSigner } from './fast-sign-session.ts';
import { IdleOrderSigner } from './idle-signer.ts';
import { LiveVenue } from './live-venue.ts';

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
  /** [SIGNER_PRIVATE_KEY] */
  readonly signerPrivateKey: Secret;
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
   * ({@link IdleOrderSigner}). Default 0: a worker costs ~70–90 MB of RSS for ~0.4 ms of work per
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
 * Signs fast-sign challenges with the signer key (FAST_CANCEL). Kept beside the Signer rather than
 * in it: the key's holder only ever signs this one message kind here.
 */
function fastSignSigner(privateKey: Secret, account: bigint, chain: ChainInfo): FastSignSigner {
  const key = parsePrivateKey(privateKey);
  return { signFastSign: (challenge) => signHash(fastSignMessageHash(chain, account, challenge), key) };
}

/** Builds the live venue; nothing connects until `start()`. */
export function createLiveVenue(config: LiveVenueConfig, deps: { clock: Clock; rng: Rng; logger: Logger }): LiveVenue {
  const chain = chainWithContracts(config.chain, config.contracts);
  const account = BigInt(config.tradingAccount);
  const workers = config.signingWorkers ?? 0;
  const signerOptions = { privateKey: config.signerPrivateKey, account, chain, withdrawHash: config.withdrawHash };
  const pool = workers > 0 ? new SigningPool({ ...signerOptions, size: workers }) : undefined;
  const signer = pool?.signer ?? new Signer(signerOptions);
  const batchSigner = pool ?? new IdleOrderSigner(signer, deps.clock);
  const logger = deps.logger.child({ component: 'exchange' });
  const anomalies = new WireAnomalyCounter(logger);
  const rest = new RestClient({
    anomalies: anomalies.sink,
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
      ...(config.confirm === undefined ? {} : { confirm: config.confirm }),
      ...(config.starknetRpcUrl === undefined ? {} : { starknetRpcUrl: config.starknetRpcUrl }),
      ...(config.streamTiming === undefined ? {} : { streamTiming: config.streamTiming }),
    },
    {
      rest,
      signer,
      batchSigner,
      clock: deps.clock,
      rng: deps.rng.fork('venue'),
      logger,
      anomalies,
      ...(config.fastCancel === true ? { fastSignSigner: fastSignSigner(config.signerPrivateKey, account, chain) } : {}),
    },
  );
}
