/**
 * `akira-mm sim`: runs the embedded exchange until SIGTERM/SIGINT. Prints the accounts (dev
 * accounts with their private keys, like starknet-devnet; this terminal listing is the only place
 * a key appears, never a log line) and logs one line with its URLs once it listens.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CHAIN_NAMES, LiveClock, createLogger, createRng, getChain, isChainName } from '../core/index.ts';
import { DEFAULT_RATE_LIMIT, NO_FAULTS, NO_RATE_LIMIT, describeAccounts, describeWallets, parseAccountsFile, startSim, type FaultSettings, type RateLimitSettings, type SimAccount } from '../sim/index.ts';
import { integerFlag, parseFlags, type CommandHelp } from './args.ts';
import { startFlowFollower, type FlowFollower } from './flow-follow.ts';
import { FLOW_FLAGS, describeFlow, parseFlowFlags } from './flow-flags.ts';
import { UsageError, type CommandRunner } from './io.ts';

const USAGE =
  'akira-mm sim [--port N] [--host H] [--chain mainnet|sepolia] [--accounts FILE|none] [--seed N] [--dev-accounts N] [--no-flow] ' +
  '[--withdraw-hash snip12|poseidon] [--fault KEY=VALUE]... [--rate-limit PER_SECOND[:BURST]|off] [--rpc-port N] [--flow-follow URL|FILE [--flow-follow-symbol SYMBOL]] ' +
  '[--flow poisson|reference] [--thin-… X]… [--withdraw-delay BLOCKS:SECONDS] [--block-ms N] [--rollup-ms N]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary: 'Runs the embedded exchange (the whole API over HTTP and WS on loopback) until SIGINT/SIGTERM, and prints its development accounts with their keys like starknet-devnet.',
};

const OPTIONS = {
  port: { type: 'string', value: 'N', unit: 'port', default: 8080, doc: 'HTTP and WS port (0: any free port)' },
  host: { type: 'string', value: 'HOST', default: '127.0.0.1', doc: 'interface to listen on' },
  chain: { type: 'string', value: 'mainnet|sepolia', default: 'mainnet', doc: 'chain whose tokens and signing domain it uses' },
  accounts: {
    type: 'string',
    value: 'FILE|none',
    default: 'generated dev accounts',
    doc: 'JSON file of accounts and balances; none: the dev accounts start as Starknet wallets only (not bound, granted or funded on the exchange; `akira-mm account setup` does that)',
  },
  'withdraw-delay': { type: 'string', value: 'BLOCKS:SECONDS', default: '2:60', doc: 'the core contract\'s on-chain withdrawal delay (get_withdraw_delay_params)' },
  'rollup-ms': { type: 'string', value: 'N', unit: 'ms', default: 2000, doc: 'fills settle on the Starknet double in one rollup transaction (a Trade event per fill) every N ms; 0: no rollups' },
  'block-ms': { type: 'string', value: 'N', unit: 'ms', default: 6000, doc: 'the Starknet double closes an empty block after this long without one (0: only with transactions)' },
  seed: { type: 'string', value: 'N', default: 0, doc: 'seed of dev accounts and synthetic flow' },
  'dev-accounts': { type: 'string', value: 'N', unit: 'accounts', default: 3, doc: 'development accounts to create' },
  'no-flow': { type: 'boolean', doc: 'no synthetic order flow' },
  'withdraw-hash': { type: 'string', value: 'snip12|poseidon', default: 'snip12', doc: 'withdraw hash scheme it verifies' },
  fault: { type: 'string', value: 'KEY=VALUE', multiple: true, default: 'no faults', doc: `fault injection: ${Object.keys(NO_FAULTS).filter((key) => key !== 'paths').join(', ')}` },
  'rate-limit': { type: 'string', value: 'PER_SECOND[:BURST]|off', unit: 'requests/s per account', default: '20:40', doc: 'the venue\'s per-trader limit on state-changing requests: 429 with a suggested sleep beyond it; off = none' },
  'rpc-port': { type: 'string', value: 'N', unit: 'port', default: 'port + 1', doc: 'Starknet JSON-RPC of the double: accounts, ERC-20 wallets, the core contract (spec 0.10)' },
  'flow-follow': { type: 'string', value: 'URL|FILE', default: 'random walk', doc: 'the flow tracks this Binance market\'s mid: a Binance-protocol WS URL (an `akira-mm feed`, wss://stream.binance.com:9443) or a recording' },
  'flow-follow-symbol': { type: 'string', value: 'SYMBOL', default: 'from the URL or FILE, else ETHUSDT', doc: 'Binance symbol to follow; its base token is the one that moves' },
  ...FLOW_FLAGS,
} as const;

/** `--fault httpErrorRate=0.1` → a fault setting; every key of FaultSettings except the lists (`paths`, `streamPairs`). */
function parseFaults(values: readonly string[]): Partial<FaultSettings> {
  const faults: Record<string, number | boolean> = {};
  for (const entry of values) {
    const [key, value] = entry.split('=', 2) as [string, string | undefined];
    const known = (NO_FAULTS as unknown as Record<string, unknown>)[key];
    if (known === undefined || Array.isArray(known) || value === undefined) {
      const keys = Object.entries(NO_FAULTS).filter(([, setting]) => !Array.isArray(setting)).map(([name]) => name);
      throw new UsageError(`--fault ${entry}: expected KEY=VALUE with KEY one of ${keys.join(', ')}`);
    }
    if (typeof known === 'boolean') {
      if (value !== 'true' && value !== 'false') throw new UsageError(`--fault ${key}=${value}: expected true or false`);
      faults[key] = value === 'true';
    } else {
      const number = Number(value);
      const isRate = key.endsWith('Rate');
      if (!Number.isFinite(number) || number < 0 || (isRate && number > 1)) {
        throw new UsageError(`--fault ${key}=${value}: expected ${isRate ? 'a probability in [0, 1]' : 'a non-negative number'}`);
      }
      faults[key] = number;
    }
  }
  return faults as Partial<FaultSettings>;
}

/**
 * `--rate-limit 20:40` → 20 state-changing requests per second per account, bursts of 40 (the
 * default); `--rate-limit off` switches the venue's 429s off.
 */
function parseRateLimit(value: string | undefined): RateLimitSettings {
  if (value === undefined) return DEFAULT_RATE_LIMIT;
  if (value === 'off') return NO_RATE_LIMIT;
  const match = /^(\d+(?:\.\d+)?)(?::(\d+))?$/.exec(value);
  const perSecond = Number(match?.[1]);
  const burst = match?.[2] === undefined ? Math.max(1, Math.ceil(perSecond * 2)) : Number(match[2]);
  if (match === null || !(perSecond > 0) || burst < 1) throw new UsageError(`--rate-limit ${value}: expected PER_SECOND[:BURST] (e.g. 20:40) or off`);
  return { perSecond, burst };
}

/** `--withdraw-delay 2:60` → 2 blocks and 60 seconds. */
function parseWithdrawDelay(value: string | undefined): { blocks: number; seconds: number } {
  if (value === undefined) return { blocks: 2, seconds: 60 };
  const match = /^(\d+):(\d+)$/.exec(value);
  if (match === null) throw new UsageError(`--withdraw-delay ${value}: expected BLOCKS:SECONDS (e.g. 2:60)`);
  return { blocks: Number(match[1]), seconds: Number(match[2]) };
}

export const runSim: CommandRunner = async (args, io) => {
  const { values } = parseFlags(args, OPTIONS, HELP);
  const chainName = values.chain ?? 'mainnet';
  if (!isChainName(chainName)) throw new UsageError(`--chain ${chainName}: expected one of ${CHAIN_NAMES.join(', ')}`);
  const withdrawHash = values['withdraw-hash'] ?? 'snip12';
  if (withdrawHash !== 'snip12' && withdrawHash !== 'poseidon') throw new UsageError(`--withdraw-hash ${withdrawHash}: expected snip12 or poseidon`);
  const port = integerFlag('port', values.port, 8080, 0, 65_535);
  // The JSON-RPC of the core contract sits next door, so pair files can name it (STARKNET_RPC_URL).
  const rpcPort = integerFlag('rpc-port', values['rpc-port'], port === 0 ? 0 : port + 1, 0, 65_535);
  const seed = integerFlag('seed', values.seed, 0, 0, 2 ** 31 - 1);
  const devAccounts = integerFlag('dev-accounts', values['dev-accounts'], 3, 1, 1000);
  const chain = getChain(chainName);
  let accounts: SimAccount[] | undefined;
  const walletsOnly = values.accounts === 'none';
  const withdrawDelay = parseWithdrawDelay(values['withdraw-delay']);
  const blockIntervalMs = integerFlag('block-ms', values['block-ms'], 6_000, 0, 3_600_000);
  const rollupMs = integerFlag('rollup-ms', values['rollup-ms'], 2_000, 0, 3_600_000);
  if (values.accounts !== undefined && !walletsOnly) {
    const path = resolve(io.cwd, values.accounts);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new UsageError(`--accounts ${values.accounts}: cannot read (${error instanceof Error ? error.message : String(error)})`);
    }
    try {
      accounts = parseAccountsFile(text, chain);
    } catch (error) {
      throw new UsageError(`--accounts ${values.accounts}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const faults = parseFaults(values.fault ?? []);
  const logger = createLogger({ level: io.env['LOG_LEVEL'] ?? 'info', base: { component: 'sim' } });
  // --flow-follow: the flow's price of the symbol's base tracks a Binance market (src/cli/flow-follow.ts).
  const followSpec = values['flow-follow'];
  if (followSpec !== undefined && values['no-flow'] === true) throw new UsageError('--flow-follow needs the synthetic flow: drop --no-flow');
  if ((values as Readonly<Record<string, unknown>>)['flow'] !== undefined && values['no-flow'] === true) throw new UsageError('--flow chooses a flow and --no-flow has none: drop one');
  // With --flow-follow the followed token's books trade with the reference's takers unless --flow poisson.
  const flow = parseFlowFlags(values, followSpec !== undefined, '--flow-follow URL|FILE');
  const follow: FlowFollower | undefined =
    followSpec === undefined ? undefined : await startFlowFollower(followSpec, values['flow-follow-symbol'], { clock: new LiveClock(), rng: createRng(seed), logger, chain, cwd: io.cwd });
  const sim = await startSim({
    port,
    host: values.host ?? '127.0.0.1',
    chain: chainName,
    seed,
    devAccounts,
    flow: values['no-flow'] !== true,
    withdrawHash,
    faults,
    logger,
    settings: { rateLimit: parseRateLimit(values['rate-limit']) },
    rpcPort,
    accountsMode: walletsOnly ? 'wallets' : 'funded',
    withdrawDelay,
    blockIntervalMs,
    rollupMs,
    ...(accounts === undefined ? {} : { accounts }),
    ...(follow === undefined ? {} : { follow, flowModel: flow.model, referenceFlow: flow.options }),
  }).catch(async (error: unknown) => {
    await follow?.stop();
    throw error;
  });
  if (follow !== undefined) logger.info({ symbol: follow.symbol, token: follow.token, price: follow.priceUsd(), flow: flow.model }, `flow follows ${follow.symbol}; ${describeFlow(flow.model, flow.options)}`);
  io.stdout.write(`Accounts (${chainName}${walletsOnly ? ', wallets only' : ''}):\n${describeAccounts(sim.accounts, chain)}`);
  io.stdout.write(`Starknet wallets (account owner keys, not trading keys):\n${describeWallets(sim.wallets)}`);
  logger.info(
    { httpUrl: sim.httpUrl, wsUrl: sim.wsUrl, rpcUrl: sim.rpcUrl, chain: chainName, flow: values['no-flow'] !== true },
    `sim listening on ${sim.httpUrl} (ws ${sim.wsUrl}, starknet rpc ${sim.rpcUrl})`,
  );
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      done();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await sim.stop();
  await follow?.stop();
  logger.info('sim stopped');
  logger.flush();
  return 0;
};
