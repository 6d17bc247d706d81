/**
 * What `run` and `paper` share: a validated pair file becomes a live venue (REST + WS + signer)
 * and a daemon around the engine. Only the URLs differ: `run` uses the file's, `paper` points
 * them at the embedded exchange it started.
 */
import { randomBytes } from 'node:crypto';
import type { PairConfig } from '../config/index.ts';
import { LiveClock, createLogger, createRng, getChain, getToken, type Logger } from '../core/index.ts';
import { WIRE_ANOMALY_KINDS, createLiveVenue, type LiveVenue, type LiveVenueConfig } from '../exchange/index.ts';
import { startDaemon, type RunningDaemon } from './daemon.ts';
import { engineSettingsFromConfig } from './engine-settings.ts';
import type { CliIo } from './io.ts';
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * Pre-signing effectiveness (a miss means a requote signed in the hot path), and what the venue
 * sent that the client read past (issue 11 item 3), by kind.
 */
function registerVenueMetrics(registry: Registry, venue: LiveVenue): void {
  const reported = new Map<string, number>();
  new Counter({
    name: 'akira_mm_wire_anomalies_total',
    help: 'Oddities in venue messages read past instead of dropping the message (extra decimals, unknown enum values, unreadable frames …)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      for (const kind of WIRE_ANOMALY_KINDS) {
        const count = venue.wireAnomalies().get(kind) ?? 0;
        this.inc({ kind }, count - (reported.get(kind) ?? 0));
        reported.set(kind, count);
      }
    },
  });
  const stats = (): ReturnType<LiveVenue['presignStats']> => venue.presignStats();
  new Gauge({ name: 'akira_mm_presign_hits_total', help: 'Orders sent pre-signed', registers: [registry], collect() { this.set(stats().hits); } });
  new Gauge({ name: 'akira_mm_presign_misses_total', help: 'Orders signed in the hot path (no pre-signed match)', registers: [registry], collect() { this.set(stats().misses); } });
  new Gauge({ name: 'akira_mm_presign_ready', help: 'Pre-signed orders waiting', registers: [registry], collect() { this.set(stats().size); } });
}

export interface LiveRunOptions {
  readonly config: PairConfig;
  readonly io: CliIo;
  readonly logger?: Logger;
  readonly metricsHost?: string;
  readonly journalPath?: string;
  /** State directory (journal, account lock); default as `resolveStateDir`. */
  readonly stateDir?: string;
  /** Lock the account in the state directory (default true). */
  readonly lockAccount?: boolean;
  readonly stopSignal?: Promise<string>;
  readonly showStatus?: boolean;
  /** Signing worker threads (default SIGNING_WORKERS, 0: pre-signing runs on the event loop in idle slices). */
  readonly signingWorkers?: number;
}

export interface LiveRun {
  readonly venue: LiveVenue;
  readonly daemon: RunningDaemon;
  readonly logger: Logger;
}

/** The live venue's settings from a validated pair file (also used by `akira-mm preflight`). */
export function liveVenueConfig(config: PairConfig, signingWorkers?: number): LiveVenueConfig {
  return {
    httpUrl: config.exchangeHttpUrl,
    wsUrl: config.exchangeWsUrl,
    chain: config.chain,
    tradingAccount: config.tradingAccount,
    signerPrivateKey: config.signerPrivateKey,
    base: config.base,
    quote: config.quote,
    ecosystemBook: config.ecosystemBook,
    feeToken: config.engine.FEE_TOKEN,
    gasPriceMultiplier: config.gasPriceMultiplier.value,
    gasRefreshS: config.engine.GAS_REFRESH_S,
    conversionMarginBps: config.engine.CONVERSION_MARGIN_BPS.value,
    orderTtlS: config.engine.ORDER_TTL_S,
    withdrawHash: config.withdrawHash,
    contracts: config.contracts,
    fastCancel: config.fastCancel,
    ...(config.starknetRpcUrl === undefined ? {} : { starknetRpcUrl: config.starknetRpcUrl }),
    ...(signingWorkers === undefined ? {} : { signingWorkers }),
  };
}

/** Starts the engine against the venue the config names; resolves once it is quoting. */
export async function startLiveRun(options: LiveRunOptions): Promise<LiveRun> {
  const { config, io } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel, base: { pair: `${config.base}/${config.quote}` } });
  const clock = new LiveClock();
  // Salts must be unpredictable on a real venue: the live RNG is seeded from the OS, once.
  const rng = createRng(randomBytes(4).readUInt32LE(0));
  const chain = getChain(config.chain);
  if (config.starknetRpcUrl === undefined) {
    logger.warn({ chain: config.chain }, 'STARKNET_RPC_URL is not set: the fee recipient and contract addresses signed into every order are not checked against the chain (`akira-mm preflight` says which are verified)');
  }
  const venue = createLiveVenue(liveVenueConfig(config, options.signingWorkers ?? config.signingWorkers), { clock, rng, logger });
  const settings = engineSettingsFromConfig(config.engine, {
    baseDecimals: getToken(chain, config.base).decimals,
    quoteDecimals: getToken(chain, config.quote).decimals,
  });
  const daemon = await startDaemon({
    config,
    venue,
    settings,
    logger,
    io,
    ...(options.metricsHost === undefined ? {} : { metricsHost: options.metricsHost }),
    ...(options.journalPath === undefined ? {} : { journalPath: options.journalPath }),
    ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
    ...(options.lockAccount === undefined ? {} : { lockAccount: options.lockAccount }),
    ...(options.stopSignal === undefined ? {} : { stopSignal: options.stopSignal }),
    ...(options.showStatus === undefined ? {} : { showStatus: options.showStatus }),
    registerMetrics: (registry) => registerVenueMetrics(registry, venue),
  });
  return { venue, daemon, logger };
}
