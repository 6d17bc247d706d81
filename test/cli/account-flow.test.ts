/**
 * Issue 31's whole way, on loopback: a fresh trading key and a Starknet wallet with funds only
 * (`akira-mm sim --accounts none`), `account setup` (twice: the second sends nothing), the daemon
 * quoting with the new account, a fill, the rollup, `account settlement` clean, and both
 * withdrawal paths back to the wallet.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLiveRun } from '../../src/cli/live.ts';
import { validatePairEnv } from '../../src/cli/pair-config.ts';
import { ManualClock, Secret, createRng, createSilentLogger } from '../../src/core/index.ts';
import { createLiveVenue } from '../../src/exchange/index.ts';
import { generatePrivateKey } from '../../src/exchange/signer/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { startSim, type SimHandle } from '../../src/sim/index.ts';
import { account } from './account-support.ts';
import { ETH, QUIET_LISTENER, USDC, eventually, place, silentIo } from '../integration/support.ts';

let sim: SimHandle | undefined;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await sim?.stop();
  sim = undefined;
});

const freshKey = (): bigint => generatePrivateKey((size) => randomBytes(size));

function pairLines(venue: SimHandle, index: number, key: bigint): Record<string, string> {
  const address = feltToHex(venue.wallets[index]!.address);
  return {
    EXCHANGE_HTTP_URL: venue.httpUrl,
    EXCHANGE_WS_URL: venue.wsUrl,
    STARKNET_RPC_URL: venue.rpcUrl,
    TRADING_ACCOUNT: address,
    SIGNER_PRIVATE_KEY: feltToHex(key),
    WITHDRAW_ALLOWED_RECEIVERS: address,
    BASE: 'ETH',
    QUOTE: 'USDC',
    LOG_LEVEL: 'silent',
    METRICS_PORT: '0',
    LADDER_LEVELS: '1',
    LADDER_ORDER_SIZE: '0.05',
    LADDER_BID_SPREAD_BPS: '5',
    LADDER_ASK_SPREAD_BPS: '5',
  };
}

function writePair(lines: Record<string, string>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'akira-flow-')), 'pair.env');
  writeFileSync(path, Object.entries(lines).map(([key, value]) => `${key}=${value}`).join('\n'), { mode: 0o600 });
  return path;
}


const FAST = ['--yes', '--poll-ms', '1'];

describe('from a wallet to quoting and back out', () => {
  it('sets up a fresh key, quotes, fills, settles on chain, and withdraws both ways to the wallet', async () => {
    sim = await startSim({ seed: 0, flow: false, devAccounts: 2, signatureWorkers: 0, accountsMode: 'wallets', rollupMs: 3_600_000, withdrawDelay: { blocks: 1, seconds: 0 }, blockIntervalMs: 0 });
    const venue = sim;
    const wallet = venue.wallets[0]!;
    const makerLines = pairLines(venue, 0, freshKey());
    const makerEnv = writePair(makerLines);
    const setup = ['setup', '--env', makerEnv, '--deposit', 'USDC=10000', '--deposit', 'ETH=3', '--deposit', 'STRK=1000', ...FAST];
    expect((await account(venue, 0, setup)).code).toBe(0);
    const again = await account(venue, 0, setup);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/nothing to do: setup is already done; nothing sent/);
    expect(venue.starknet.accounts.get(wallet.address)!.nonce).toBe(1n);

    // A counterparty, set up the same way from the other wallet.
    const takerKey = freshKey();
    expect((await account(venue, 1, ['setup', '--env', writePair(pairLines(venue, 1, takerKey)), '--deposit', 'USDC=10000', '--deposit', 'ETH=1', '--deposit', 'STRK=1000', ...FAST])).code).toBe(0);

    const taker = createLiveVenue(
      { httpUrl: venue.httpUrl, wsUrl: venue.wsUrl, chain: 'mainnet', tradingAccount: feltToHex(venue.wallets[1]!.address), signerPrivateKey: new Secret(feltToHex(takerKey)), base: 'ETH', quote: 'USDC', ecosystemBook: true, feeToken: 'STRK', gasPriceMultiplier: 1.25, gasRefreshS: 30, conversionMarginBps: 50, orderTtlS: 3600, withdrawHash: 'snip12', signingWorkers: 0 },
      { clock: new ManualClock(Date.now()), rng: createRng(7), logger: createSilentLogger() },
    );
    await taker.start(QUIET_LISTENER);
    cleanups.push(() => taker.stop());
    // A book to quote around (the sim runs without its synthetic flow here).
    await place(taker, { side: 'buy', priceUnits: 2990n * USDC, qtyUnits: ETH / 10n, postOnly: true });
    await place(taker, { side: 'sell', priceUnits: 3010n * USDC, qtyUnits: ETH / 10n, postOnly: true });

    // The daemon quotes with the new account; its journal records the fill.
    const journalPath = join(mkdtempSync(join(tmpdir(), 'akira-flow-journal-')), 'account.journal');
    let stop: (signal: string) => void = () => undefined;
    const stopSignal = new Promise<string>((resolve) => (stop = resolve));
    const run = await startLiveRun({ config: validatePairEnv(makerLines, 'test'), io: silentIo(), logger: createSilentLogger(), stateDir: mkdtempSync(join(tmpdir(), 'akira-flow-state-')), journalPath, stopSignal, showStatus: false, signingWorkers: 0 });
    let stopped = false;
    cleanups.push(async () => {
      if (!stopped) {
        stop('SIGTERM');
        await run.daemon.done;
      }
    });
    const ask = await eventually(() => venue.openOrdersOf(wallet.address).find((order) => order.side === 'sell' && order.restingPrice !== undefined), 20_000, 'the daemon’s ask');
    await place(taker, { side: 'buy', priceUnits: ask.restingPrice ?? 0n, qtyUnits: ETH / 100n, postOnly: false });
    await eventually(() => existsSync(`${journalPath}.fills`) && readFileSync(`${journalPath}.fills`, 'utf8').includes('"t":"fill"'), 20_000, 'the fill in the journal’s fills log');
    stop('SIGTERM');
    await run.daemon.done;
    stopped = true;

    // The rollup records it on chain; the settlement check finds every fill settled.
    const batch = venue.rollup.flush();
    expect(batch?.transaction.succeeded).toBe(true);
    const settlement = await account(venue, 0, ['settlement', '--env', makerEnv, '--journal', journalPath, '--json']);
    expect(settlement.stderr).toBe('');
    expect(settlement.code).toBe(0);
    expect(JSON.parse(settlement.stdout)).toMatchObject({ clean: true, counts: { settled: 1, unsettled: 0, failed: 0, altered: 0, foreign: 0 } });

    // Both withdrawal paths end in the wallet.
    const before = venue.starknet.walletOf(wallet.address, 'USDC');
    expect((await account(venue, 0, ['withdraw', '--env', makerEnv, '--token', 'USDC', '--amount', '100', ...FAST])).code).toBe(0);
    expect((await account(venue, 0, ['withdraw', '--env', makerEnv, '--token', 'USDC', '--amount', '200', '--onchain', 'request', ...FAST])).code).toBe(0);
    expect((await account(venue, 0, ['withdraw', '--env', makerEnv, '--token', 'USDC', '--amount', '200', '--onchain', 'apply', ...FAST])).code).toBe(0);
    expect(venue.starknet.walletOf(wallet.address, 'USDC')).toBe(before + 300n * USDC);
  });
});
