/**
 * Key custody end to end (issue 16): the daemon quotes against the embedded exchange with its key
 * in an encrypted keystore, and with no key at all through `akira-mm signer serve` running as its
 * own process (pre-signed ladders included); neither the key nor the password reaches a log line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/index.ts';
import type { LiveVenue } from '../../src/exchange/index.ts';
import { encryptStarkKeystore } from '../../src/exchange/signer/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import type { SimHandle } from '../../src/sim/index.ts';
import { startLiveRun, type LiveRun } from '../../src/cli/live.ts';
import { loadPairFile } from '../../src/cli/pair-config.ts';
import { ETH, USDC, counterparty, eventually, place, silentIo, startTestSim } from './support.ts';

const BIN = new URL('../../bin/akira-mm.js', import.meta.url).pathname;
const PASSWORD = 'tr0ub4dor&3-custody';

let sim: SimHandle | undefined;
let signer: ChildProcess | undefined;
const venues: LiveVenue[] = [];

afterEach(async () => {
  for (const venue of venues.splice(0)) await venue.stop();
  if (signer !== undefined && signer.exitCode === null) signer.kill('SIGKILL');
  signer = undefined;
  await sim?.stop();
  sim = undefined;
});

/** A folder with dev account 0's key in a keystore, its password file and a pair file (all 0600). */
async function custodyFiles(s: SimHandle, signerLines: string[]): Promise<{ dir: string; pairFile: string; keystore: string; password: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'akira-custody-'));
  const account = s.accounts[0]!;
  const keystore = join(dir, 'eth.json');
  const password = join(dir, 'password');
  writeFileSync(keystore, await encryptStarkKeystore(account.privateKey!, PASSWORD, { scrypt: { n: 1024, r: 8, p: 1 }, randomBytes: (n) => new Uint8Array(n).fill(3) }), { mode: 0o600 });
  writeFileSync(password, `${PASSWORD}\n`, { mode: 0o600 });
  const pairFile = join(dir, 'pair.env');
  const lines = [
    `EXCHANGE_HTTP_URL=${s.httpUrl}`,
    `EXCHANGE_WS_URL=${s.wsUrl}`,
    `TRADING_ACCOUNT=${feltToHex(account.address)}`,
    ...signerLines,
    'BASE=ETH',
    'QUOTE=USDC',
    'METRICS_PORT=0',
    'LADDER_LEVELS=1',
    'LADDER_ORDER_SIZE=0.05',
    'LADDER_BID_SPREAD_BPS=5',
    'LADDER_ASK_SPREAD_BPS=5',
    'RISK_MAX_ORDER_NOTIONAL=1000',
  ];
  writeFileSync(pairFile, lines.join('\n'), { mode: 0o600 });
  return { dir, pairFile, keystore, password };
}

/** A market from dev account 2 for the bot to quote inside. */
async function makeMarket(s: SimHandle): Promise<void> {
  const maker = await counterparty(s, 2);
  venues.push(maker);
  await place(maker, { side: 'buy', priceUnits: 2990n * USDC, qtyUnits: ETH, postOnly: true });
  await place(maker, { side: 'sell', priceUnits: 3010n * USDC, qtyUnits: ETH, postOnly: true });
}

/** Runs the bot from `pairFile` as `akira-mm run` does, its log captured. */
async function runBot(pairFile: string): Promise<{ run: LiveRun; stop(): Promise<number>; log: string[] }> {
  const log: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        log.push(chunk.toString());
        done();
      },
    }),
  });
  let stop: (signal: string) => void = () => undefined;
  const stopSignal = new Promise<string>((resolve) => (stop = resolve));
  const run = await startLiveRun({
    config: loadPairFile(pairFile),
    io: silentIo(),
    logger,
    journalPath: join(mkdtempSync(join(tmpdir(), 'akira-custody-')), 'bot.journal'),
    stopSignal,
    showStatus: false,
  });
  return {
    run,
    log,
    stop: async () => {
      stop('SIGTERM');
      return run.daemon.done;
    },
  };
}

async function quotesBothSides(s: SimHandle): Promise<void> {
  const account = s.accounts[0]!.address;
  await eventually(() => {
    const open = s.openOrdersOf(account);
    return open.some((o) => o.request.flags.isSellSide) && open.some((o) => !o.request.flags.isSellSide);
  }, 30_000, 'a two-sided quote');
}

/** Neither the key nor the password in any line, and no refusal: the bot never asks for what the policy forbids. */
function expectNoSecretIn(lines: readonly string[], s: SimHandle): void {
  const text = lines.join('').toLowerCase();
  expect(text).not.toContain(s.accounts[0]!.privateKey!.toString(16));
  expect(text).not.toContain(PASSWORD.toLowerCase());
  expect(text).not.toContain('"event":"security"');
}

describe('key custody end to end', () => {
  it('the daemon quotes against the embedded exchange from an encrypted keystore, and stops clean', async () => {
    sim = await startTestSim();
    await makeMarket(sim);
    const files = await custodyFiles(sim, ['SIGNER_KEYSTORE=eth.json', 'SIGNER_KEYSTORE_PASSWORD_FILE=password']);
    const bot = await runBot(files.pairFile);
    await quotesBothSides(sim);
    expect(await bot.stop()).toBe(0);
    await sim.idle();
    expect(sim.openOrdersOf(sim.accounts[0]!.address)).toHaveLength(0);
    expectNoSecretIn(bot.log, sim);
  });

  it('the daemon holds no key: `signer serve` in its own process signs its orders, pre-signed batches included', async () => {
    sim = await startTestSim();
    await makeMarket(sim);
    const socket = join(mkdtempSync(join(tmpdir(), 'akira-sock-')), 'signer.sock');
    const files = await custodyFiles(sim, [`SIGNER_REMOTE=unix:${socket}`]);
    let signerOutput = '';
    signer = spawn(process.execPath, [BIN, 'signer', 'serve', '--keystore', files.keystore, '--password-file', files.password, '--socket', socket, '--env', files.pairFile, '--workers', '1'], {
      cwd: files.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    signer.stdout?.on('data', (chunk: Buffer) => (signerOutput += chunk.toString()));
    signer.stderr?.on('data', (chunk: Buffer) => (signerOutput += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => signer!.on('exit', (code) => resolve(code)));
    await eventually(() => signerOutput.includes('signer serving'), 30_000, 'the signer to listen');
    expect(signerOutput).toContain('pairs: ETH/USDC (orders up to 1000 USDC); withdrawals to: none');

    const bot = await runBot(files.pairFile);
    expect(loadPairFile(files.pairFile).signer).toEqual({ kind: 'remote', socketPath: socket });
    await quotesBothSides(sim);
    // Pre-signing batches went over the socket to the signer's worker thread.
    await eventually(() => bot.run.session.venues[0]!.presignStats().stored > 0, 30_000, 'pre-signed orders');
    expect(await bot.stop()).toBe(0);
    await sim.idle();
    expect(sim.openOrdersOf(sim.accounts[0]!.address)).toHaveLength(0);
    expectNoSecretIn(bot.log, sim);

    signer.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(socket)).toBe(false);
    expectNoSecretIn([signerOutput], sim);
  });
});
