/**
 * Shared set-up for daemon ↔ embedded-exchange tests: a sim without synthetic flow (so every
 * fill is one the test made), helper accounts that make the market or take liquidity through
 * the same live venue the bot uses, and the bot itself started exactly as `akira-mm run` starts it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ManualClock, Secret, createRng, createSilentLogger, getChain, type OrderIntent, type VenueListener } from '../../src/core/index.ts';
import { createLiveVenue, type LiveVenue, type LiveVenueConfig } from '../../src/exchange/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { startSim, type SimHandle } from '../../src/sim/index.ts';
import { startLiveRun, type LiveRun } from '../../src/cli/live.ts';
import { validatePairEnv } from '../../src/cli/pair-config.ts';
import type { CliIo } from '../../src/cli/io.ts';

export const ETH = 10n ** 18n;
export const USDC = 10n ** 6n;

/** Polls until `check` returns a value (not undefined/false) or the time runs out. */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function startTestSim(): Promise<SimHandle> {
  return startSim({ seed: 0, flow: false, devAccounts: 4, signatureWorkers: 0 });
}

/** Live-venue settings for dev account `index` of a running sim, ETH/USDC ecosystem book. */
export function devVenueConfig(sim: SimHandle, index: number, signingWorkers: number): LiveVenueConfig {
  const account = sim.accounts[index]!;
  return {
    httpUrl: sim.httpUrl,
    wsUrl: sim.wsUrl,
    chain: 'mainnet',
    tradingAccount: feltToHex(account.address),
    signerPrivateKey: new Secret(feltToHex(account.privateKey!)),
    base: 'ETH',
    quote: 'USDC',
    ecosystemBook: true,
    feeToken: 'STRK',
    gasPriceMultiplier: 1.25,
    gasRefreshS: 30,
    conversionMarginBps: 50,
    orderTtlS: 3600,
    withdrawHash: 'snip12',
    signingWorkers,
  };
}

/** A listener that ignores everything (counterparties only send). */
export const QUIET_LISTENER: VenueListener = {
  onTopOfBook: () => undefined,
  onTrade: () => undefined,
  onOrderReport: () => undefined,
  onGasQuote: () => undefined,
  onResync: () => undefined,
  onFeedStatus: () => undefined,
};

/** A dev account trading through its own live venue (the market maker's counterparties). */
export async function counterparty(sim: SimHandle, index: number): Promise<LiveVenue> {
  const venue = createLiveVenue(devVenueConfig(sim, index, 0), { clock: new ManualClock(Date.now()), rng: createRng(100 + index), logger: createSilentLogger() });
  await venue.start(QUIET_LISTENER);
  return venue;
}

export async function place(venue: LiveVenue, intent: OrderIntent): Promise<string> {
  const outcome = await venue.submitOrder(await venue.signOrder(intent));
  if (outcome.kind !== 'accepted') throw new Error(`order refused: ${JSON.stringify(outcome)}`);
  return outcome.orderId;
}

export function silentIo(): CliIo {
  const sink = { write: () => true };
  return { stdout: sink, stderr: sink, stdin: Readable.from([]), env: {}, cwd: process.cwd() };
}

/** The bot on dev account 0, started like `akira-mm run`; `stop()` plays the part of SIGTERM. */
export async function startBot(sim: SimHandle, env: Record<string, string> = {}, options: Pick<Parameters<typeof startLiveRun>[0], 'observerOf'> = {}): Promise<LiveRun & { stop(): Promise<number> }> {
  const account = sim.accounts[0]!;
  const config = validatePairEnv(
    {
      EXCHANGE_HTTP_URL: sim.httpUrl,
      EXCHANGE_WS_URL: sim.wsUrl,
      CHAIN: getChain('mainnet').name,
      TRADING_ACCOUNT: feltToHex(account.address),
      SIGNER_PRIVATE_KEY: feltToHex(account.privateKey!),
      BASE: 'ETH',
      QUOTE: 'USDC',
      METRICS_PORT: '0',
      LOG_LEVEL: 'silent',
      LADDER_LEVELS: '1',
      LADDER_ORDER_SIZE: '0.05',
      LADDER_BID_SPREAD_BPS: '5',
      LADDER_ASK_SPREAD_BPS: '5',
      ...env,
    },
    'test',
  );
  let stop: (signal: string) => void = () => undefined;
  const stopSignal = new Promise<string>((resolve) => (stop = resolve));
  const run = await startLiveRun({
    config,
    io: silentIo(),
    logger: createSilentLogger(),
    stateDir: mkdtempSync(join(tmpdir(), 'akira-it-')),
    stopSignal,
    showStatus: false,
    signingWorkers: 0,
    ...options,
  });
  return {
    ...run,
    stop: async () => {
      stop('SIGTERM');
      return run.daemon.done;
    },
  };
}

/** Writes a pair file for dev account `index` of the sim (ETH/USDC, silent logs) plus `extra` lines; returns its path. */
export function writeDevPairFile(sim: SimHandle, index: number, extra: readonly string[] = []): string {
  const account = sim.accounts[index];
  if (account?.privateKey === undefined) throw new Error(`the sim has no dev account ${index}`);
  const path = join(mkdtempSync(join(tmpdir(), 'akira-pair-')), 'pair.env');
  const lines = [`EXCHANGE_HTTP_URL=${sim.httpUrl}`, `EXCHANGE_WS_URL=${sim.wsUrl}`, `TRADING_ACCOUNT=${feltToHex(account.address)}`, `SIGNER_PRIVATE_KEY=${feltToHex(account.privateKey)}`, 'BASE=ETH', 'QUOTE=USDC', 'LOG_LEVEL=silent'];
  writeFileSync(path, [...lines, ...extra].join('\n'), { mode: 0o600 });
  return path;
}
