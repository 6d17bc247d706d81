/**
 * `startSim`: the embedded exchange on one port (HTTP + WS at `/ws`), with an injected clock and a
 * seeded RNG, returning URLs, the accounts, the fault switchboard and inspection helpers for tests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import {
  LiveClock,
  createRng,
  createSilentLogger,
  getChain,
  withContracts,
  type ChainInfo,
  type ChainName,
  type Clock,
  type ContractOverrides,
  type Logger,
  type Timer,
} from '../core/index.ts';
import { CURVE_ORDER, devAccounts, starkKeyOf, type WithdrawHashScheme } from '../exchange/signer/index.ts';
import { fundDevAccounts, type SimAccount } from './accounts.ts';
import { AuthService } from './auth.ts';
import type { VenueContext } from './context.ts';
import { Engine } from './engine.ts';
import { fastSignRoutes } from './fast-sign.ts';
import { FastSignKeys } from './fast-sign-keys.ts';
import { RateLimiter } from './rate-limit.ts';
import type { EngineListener } from './events.ts';
import { FaultController, type FaultSettings } from './faults.ts';
import { DEFAULT_FLOW, SyntheticFlow, type FlowOptions } from './flow.ts';
import { formatExecutionReport, wsPair } from './format.ts';
import { createRequestHandler, type Route } from './http.ts';
import { Ledger, type Holding, type TokenTotals } from './ledger.ts';
import { MarketData } from './market-data.ts';
import { listMarkets } from './markets.ts';
import type { SimOrder } from './orders.ts';
import { PriceModel } from './prices.ts';
import type { PriceFollower, ReferenceMarket } from './price-follower.ts';
import { ReferenceFlow, checkReferenceFlowOptions, referenceMarkets, type ReferenceFlowOptions, type ReferenceFlowStats } from './reference-flow.ts';
import { actionRoutes } from './routes-actions.ts';
import { infoRoutes } from './routes-info.ts';
import { userRoutes } from './routes-user.ts';
import { Sequencer } from './sequencer.ts';
import { resolveSettings, type SimSettings, type StepsSettings } from './settings.ts';
import { createInlineChecker } from './signatures/inline.ts';
import type { SignatureChecker } from './signatures/jobs.ts';
import { createWorkerPoolChecker } from './signatures/pool.ts';
import { WsHub } from './ws-hub.ts';
import { Rollup, StarknetDouble, createRpcServer, type WithdrawDelay } from './chain/index.ts';
import { createMessageHasher } from '../exchange/signer/index.ts';
import { addressToHex } from '../exchange/wire/fields.ts';

/** Options of {@link startSim}; every one has a default. */
export interface SimOptions {
  /** TCP port; default 0 (any free port). */
  readonly port?: number;
  /** Interface to bind; default 127.0.0.1. */
  readonly host?: string;
  /** Chain whose ids, contracts and tokens the venue uses; default mainnet. */
  readonly chain?: ChainName;
  /** Accounts (e.g. from `--accounts FILE`); default: `devAccounts` accounts derived from `seed`. */
  readonly accounts?: readonly SimAccount[];
  /** How many dev accounts to derive when `accounts` is not given; default 3. */
  readonly devAccounts?: number;
  /** Seed of every random choice (dev keys, flow, faults, challenges); default 0 (the shipped pair files' accounts). */
  readonly seed?: number;
  /** Synthetic flow: true (default) with defaults, false off, or options. */
  readonly flow?: boolean | Partial<FlowOptions>;
  /** Volatility of the reference prices per √second; default 0.0005. */
  readonly volatilityPerSqrtSec?: number;
  /** Time source; default the wall clock. Tests pass a ManualClock. */
  readonly clock?: Clock;
  /** Default: silent. */
  readonly logger?: Logger;
  /** Venue rules and timings (steps, fees, delays…); see DEFAULT_SETTINGS. */
  readonly settings?: Partial<Omit<SimSettings, 'steps'>> & { steps?: Partial<StepsSettings> };
  /** Faults active from the start; default none. */
  readonly faults?: Partial<FaultSettings>;
  /** Withdraw hash scheme (SPEC §1); default snip12. */
  readonly withdrawHash?: WithdrawHashScheme;
  /** Signature-check threads; 0 checks inline. Default min(2, cores). */
  readonly signatureWorkers?: number;
  /** Port of the Starknet JSON-RPC endpoint (the Starknet double); default 0 (any free port). */
  readonly rpcPort?: number;
  /**
   * `funded` (default): the accounts start bound, granted and funded on the exchange (zero-config
   * paper), their wallets funded too. `wallets`: the accounts exist only as Starknet accounts with
   * wallet funds (`--accounts none`): binding, approving, depositing and granting are theirs to do.
   */
  readonly accountsMode?: 'funded' | 'wallets';
  /** On-chain withdrawal delay (`get_withdraw_delay_params`); default 2 blocks and 60 s. */
  readonly withdrawDelay?: WithdrawDelay;
  /** An empty block closes after this long without one; default 6 000 ms. */
  readonly blockIntervalMs?: number;
  /** Fills settle on the double's chain in one rollup transaction every this long; default 0 (no rollups). */
  readonly rollupMs?: number;
  /** Contract constants other than the chain's (a venue with another fee recipient, say). */
  readonly contracts?: ContractOverrides;
  /** A token whose price tracks an outside market instead of the random walk (`--flow-follow`). */
  readonly follow?: PriceFollower | ReferenceMarket;
  /**
   * Who trades on the books of the followed token against a USD stable: `reference` (the default
   * when `follow` can be heard: uninformed twins of its trades, arbitrageurs of its touch and a
   * lagged background maker, `ReferenceFlow`) or `poisson` (the synthetic ladder and Poisson
   * takers, as on every other book). Other books always have the synthetic flow.
   */
  readonly flowModel?: 'poisson' | 'reference';
  /** The reference flow's taker models; default `DEFAULT_REFERENCE_FLOW` (the backtest's `--thin-*` defaults). */
  readonly referenceFlow?: ReferenceFlowOptions;
}

/** A Starknet account of the double whose owner key the sim knows (dev accounts). Never logged. */
export interface SimWallet {
  readonly address: bigint;
  readonly ownerPrivateKey: bigint;
  readonly ownerPublicKey: bigint;
}

/** A running embedded exchange. */
export interface SimHandle {
  readonly httpUrl: string;
  readonly wsUrl: string;
  /** Starknet JSON-RPC of the double (accounts, ERC-20 wallets, the core contract). */
  readonly rpcUrl: string;
  /** The Starknet double behind `rpcUrl` (tests read wallets and events through it). */
  readonly starknet: StarknetDouble;
  /** The double's rollups (fills settled on chain in batches; `rollupMs`). */
  readonly rollup: Rollup;
  /** The Starknet accounts (wallets) of the dev accounts, with their owner keys (not the trading keys). */
  readonly wallets: readonly SimWallet[];
  readonly port: number;
  readonly chain: ChainInfo;
  readonly settings: SimSettings;
  readonly accounts: readonly SimAccount[];
  readonly faults: FaultController;
  /** Stops everything and frees the port; idempotent. */
  stop(): Promise<void>;
  /** Free and locked balance per token symbol. */
  balancesOf(account: bigint): Map<string, Holding>;
  /** Orders of the account that can still trade (resting or queued). */
  openOrdersOf(account: bigint): SimOrder[];
  orderOf(hash: bigint): SimOrder | undefined;
  /** Every order of the account the venue still remembers (finished ones too), newest first. */
  ordersOf(account: bigint): SimOrder[];
  nonceOf(account: bigint): number;
  /** Conservation figures of one token (Σ accounts + fees + gas + withdrawn = deposited). */
  totals(token: string): TokenTotals;
  tokens(): string[];
  gasPriceFri(): bigint;
  setGasPriceFri(value: bigint): void;
  /** Resolves once the signature threads are up (requests before that are checked inline). */
  signaturesReady(): Promise<void>;
  /** Resolves once every queued request has been processed. */
  idle(): Promise<void>;
  /**
   * An exchange restart that keeps its state (chaos tests): closes every WebSocket and HTTP
   * connection, stops listening for `downMs` on the venue clock (connections are refused), then
   * listens on the same port again. Books, orders, balances and sessions are untouched.
   */
  restartTransport(downMs?: number): Promise<void>;
  /** Pauses (false) or resumes (true) the synthetic flow; no-op without flow or when already so. */
  setFlowRunning(running: boolean): void;
  /**
   * A market storm (chaos runs): prices step every 100 ms with ten times the volatility, so a
   * quoting bot wants to requote far faster than any rate limit allows. False restores the flow.
   */
  setMarketStorm(storm: boolean): void;
  /** Requests of this account the venue's rate limit refused with a 429 (not fault injection). */
  rateLimitedOf(account: bigint): number;
  /** What the reference-driven flow did so far; undefined when the flow is not driven by a reference. */
  referenceFlowStats(): ReferenceFlowStats | undefined;
}

function deriveKey(seed: number, label: string): bigint {
  const digest = BigInt(`0x${createHash('sha256').update(`akira-mm sim/${seed}/${label}`).digest('hex')}`);
  return (digest % (CURVE_ORDER - 1n)) + 1n;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Starts the embedded exchange and resolves once it listens.
 * @throws when the port is taken (the listen error) or options are inconsistent.
 */
export async function startSim(options: SimOptions = {}): Promise<SimHandle> {
  const seed = options.seed ?? 0;
  const reference = options.follow !== undefined && 'subscribe' in options.follow ? options.follow : undefined;
  const flowModel = options.flowModel ?? (reference === undefined ? 'poisson' : 'reference');
  if (flowModel === 'reference' && reference === undefined) throw new Error('flowModel reference needs a followed market the sim can hear (a follow with subscribe)');
  // Checked before anything starts, so a bad option leaves nothing running.
  if (options.referenceFlow !== undefined) checkReferenceFlowOptions(options.referenceFlow);
  const chain = withContracts(getChain(options.chain ?? 'mainnet'), options.contracts);
  const settings = resolveSettings(options.settings);
  const clock = options.clock ?? new LiveClock();
  const logger = options.logger ?? createSilentLogger();
  const rng = createRng(seed);
  const host = options.host ?? '127.0.0.1';
  const accounts = options.accounts ?? fundDevAccounts(devAccounts(seed, options.devAccounts ?? 3), chain);
  const walletsOnly = options.accountsMode === 'wallets';

  const ledger = new Ledger();
  for (const account of walletsOnly ? [] : accounts) {
    ledger.open(account.address);
    for (const [token, amount] of account.balances) ledger.deposit(account.address, token, amount);
  }
  const prices = new PriceModel(chain, rng.fork('prices'), { volatilityPerSqrtSec: options.volatilityPerSqrtSec ?? 0.0005, gasPriceFri: settings.gasPriceFri, ...(options.follow === undefined ? {} : { follow: options.follow }) });
  const faults = new FaultController(rng.fork('faults'), options.faults);
  const auth = new AuthService(clock, settings, rng.fork('auth'), randomBytes(32));
  const markets = listMarkets(chain);
  const marketKeys = new Set(markets.map((market) => market.key));
  const hub = new WsHub({ clock, auth, faults, logger, pingIntervalMs: settings.wsPingIntervalMs, hasMarket: (key) => marketKeys.has(key) });

  // The book callback runs only after the engine exists (first request), so the order is safe.
  const marketData: MarketData = new MarketData({ clock, hub, faults, book: (market) => engine.book(market) });
  let referenceFlow: ReferenceFlow | undefined;
  const listener: EngineListener = {
    onExecution: (event) => {
      referenceFlow?.onExecution(event);
      // The event's stream is "fills", not the subscription name: both SDKs route private events
      // only on `stream == "fills"` and find the subscriber by `client` (docs/venue.md).
      hub.publishReport(event.order.account, {
        stream: 'fills',
        client: addressToHex(event.order.account),
        pair: wsPair(event.order.market),
        result: formatExecutionReport(event),
      });
    },
    onTrade: (event) => marketData.onTrade(event),
    onAccountReport: (event) => {
      hub.publishReport(event.account, {
        stream: 'fills',
        client: addressToHex(event.account),
        ...(event.market === undefined ? {} : { pair: wsPair(event.market) }),
        result: event.result,
      });
    },
    onFill: (event) => rollup.onFill(event),
    onWithdrawPaid: (event) => {
      starknet.payOffchainWithdraw(event.request, event.paid, event.gasPriceFri);
    },
    onBooksChanged: (changes) => {
      marketData.onBooksChanged(changes);
      referenceFlow?.onBooksChanged(changes.keys());
    },
  };
  const raceRng = rng.fork('cancel-race');
  const engine = new Engine({
    chain,
    settings,
    clock,
    ledger,
    markets,
    listener,
    logger,
    gasPriceFri: () => prices.gasPriceFri(),
    queuedActionFault: () => faults.queuedActionFault(),
    queuedRequestFails: (kind) => faults.queuedRequestFails(kind),
    beforeCancel: (order) => {
      if (flow !== undefined && order.restingPrice !== undefined && faults.roll(faults.settings.cancelRaceFillRate) && flow.takeFrom(order, 0.3 + raceRng.next() * 0.4)) faults.stats.cancelRaceFills++;
    },
  });

  const withdrawHash = options.withdrawHash ?? 'snip12';
  const workers = options.signatureWorkers ?? Math.min(2, availableParallelism());
  const checker: SignatureChecker = workers > 0 ? createWorkerPoolChecker(chain, withdrawHash, workers) : createInlineChecker(chain, withdrawHash);
  const routerPrivateKey = deriveKey(seed, 'router');
  const rateLimiter = new RateLimiter(clock, settings.rateLimit);
  const venue: VenueContext = {
    chain,
    settings,
    clock,
    engine,
    ledger,
    marketData,
    auth,
    prices,
    accounts: new Map(walletsOnly ? [] : accounts.map((account) => [account.address, account])),
    checker,
    sequencer: new Sequencer(),
    routerPrivateKey,
    routerSigner: starkKeyOf(routerPrivateKey),
    fastSign: new FastSignKeys(clock, rng.fork('fast-sign')),
    rateLimiter,
  };
  const routes = new Map<string, Route>([
    ...infoRoutes(venue),
    ...userRoutes(venue),
    ...actionRoutes(venue),
    ...fastSignRoutes(venue, venue.fastSign),
  ]);
  const server = createServer({ keepAlive: true }, createRequestHandler({ routes, auth, faults, clock, logger, maxBodyBytes: settings.maxBodyBytes }));
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://sim');
    if (url.pathname !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    hub.handleUpgrade(request, socket, head, url.searchParams);
  });

  const timers: Timer[] = [
    clock.setInterval(
      () => {
        engine.sweepExpired();
        hub.closeExpired(auth.expireListenKeys());
      },
      settings.sweepIntervalMs,
      { unref: true },
    ),
  ];
  let flow: SyntheticFlow | undefined;
  const flowOptions = { ...DEFAULT_FLOW, ...(typeof options.flow === 'object' ? options.flow : {}) };
  const flowTickMs = flowOptions.tickMs;
  if (options.flow !== false) {
    const driven = flowModel === 'reference' && reference !== undefined ? referenceMarkets(engine.markets.values(), reference.token) : [];
    if (reference !== undefined && driven.length > 0) {
      referenceFlow = new ReferenceFlow({ chain, settings, clock, rng: rng.fork('reference-flow'), engine, ledger, prices, source: reference, markets: driven }, options.referenceFlow);
    }
    flow = new SyntheticFlow({ chain, settings, clock, rng: rng.fork('flow'), engine, ledger, prices, excluded: driven }, flowOptions);
  }

  const starknet = new StarknetDouble({
    chain,
    clock,
    ledger,
    accounts: venue.accounts,
    hasher: createMessageHasher(chain, { withdrawHash }),
    nonceOf: (account) => engine.nonceOf(account),
    withdrawSteps: () => settings.steps.withdraw,
    ...(options.withdrawDelay === undefined ? {} : { withdrawDelay: options.withdrawDelay }),
    ...(options.blockIntervalMs === undefined ? {} : { blockIntervalMs: options.blockIntervalMs }),
  });
  const wallets: SimWallet[] = [];
  for (const account of accounts) {
    const ownerPrivateKey = deriveKey(seed, `owner/${account.address.toString(16)}`);
    const ownerPublicKey = starkKeyOf(ownerPrivateKey);
    starknet.deployAccount(account.address, ownerPublicKey);
    wallets.push({ address: account.address, ownerPrivateKey, ownerPublicKey });
    // Wallet funds as much as the exchange balance of a funded account (DEV_BALANCES).
    for (const [symbol, amount] of account.balances) starknet.fundWallet(account.address, symbol, amount);
    if (!walletsOnly) starknet.core.grantAtGenesis(account.address);
  }
  const rollup = new Rollup({
    double: starknet,
    clock,
    rollupMs: options.rollupMs ?? 0,
    rollupFails: () => faults.rollupFails(),
    report: (account, result) => hub.publishReport(account, { stream: 'fills', client: addressToHex(account), result }),
  });
  const rpcServer = createRpcServer(starknet);
  let port: number;
  let rpcPort: number;
  try {
    port = await listen(server, options.port ?? 0, host);
    rpcPort = await listen(rpcServer, options.rpcPort ?? 0, host);
  } catch (error) {
    server.close();
    for (const timer of timers) timer.cancel();
    hub.stop();
    engine.stop();
    await checker.close();
    throw error;
  }
  flow?.start();
  referenceFlow?.start();
  starknet.start();
  rollup.start();
  let flowRunning = flow !== undefined;

  let stopping: Promise<void> | undefined;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    httpUrl: `http://${urlHost}:${port}`,
    wsUrl: `ws://${urlHost}:${port}/ws`,
    rpcUrl: `http://${urlHost}:${rpcPort}`,
    starknet,
    rollup,
    wallets,
    port,
    chain,
    settings,
    accounts,
    faults,
    stop: () => {
      stopping ??= (async () => {
        flowRunning = false;
        flow?.stop();
        referenceFlow?.stop();
        for (const timer of timers) timer.cancel();
        starknet.stop();
        rollup.stop();
        engine.stop();
        hub.stop();
        server.closeAllConnections();
        rpcServer.closeAllConnections();
        await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), new Promise<void>((resolve) => rpcServer.close(() => resolve()))]);
        await checker.close();
      })();
      return stopping;
    },
    balancesOf: (account) => ledger.holdingsOf(account),
    openOrdersOf: (account) => engine.ordersOf(account).filter((order) => order.status === 'ACC' || order.status === 'OPEN' || order.status === 'PARTIALLY_FILLED'),
    orderOf: (hash) => engine.order(hash),
    ordersOf: (account) => engine.ordersOf(account),
    nonceOf: (account) => engine.nonceOf(account),
    totals: (token) => ledger.totals(token),
    tokens: () => ledger.tokens(),
    gasPriceFri: () => prices.gasPriceFri(),
    setGasPriceFri: (value) => prices.setGasPriceFri(value),
    signaturesReady: () => checker.ready(),
    idle: async () => {
      for (let i = 0; i < 100 && engine.queueLength() > 0; i++) await Promise.resolve();
      await Promise.resolve();
    },
    restartTransport: async (downMs = 0) => {
      if (stopping !== undefined) return;
      hub.dropAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (downMs > 0) await new Promise<void>((resolve) => clock.setTimeout(resolve, downMs));
      if (stopping !== undefined) return;
      await listen(server, port, host);
    },
    setFlowRunning: (running) => {
      if (flow === undefined || stopping !== undefined || running === flowRunning) return;
      flowRunning = running;
      if (running) {
        flow.start();
        referenceFlow?.start();
      } else {
        flow.stop();
        referenceFlow?.stop();
      }
    },
    setMarketStorm: (storm) => {
      flow?.setTickMs(storm ? 100 : flowTickMs);
      prices.setVolatilityMultiplier(storm ? 10 : 1);
    },
    rateLimitedOf: (account) => rateLimiter.deniedOf(account),
    referenceFlowStats: () => referenceFlow?.stats(),
  };
}

