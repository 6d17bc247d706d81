/**
 * Parity where we control both sides (issue 32 item 2): the bot, started as `paper` starts it,
 * quotes ETH/USDC on the embedded exchange whose flow follows the shared ETHUSDT recording (the
 * thin venue's takers: twins of the reference's trades, arbitrageurs, the background and the
 * competing maker; `paper --reference`), its session kept in its journal; then `akira-mm parity`
 * backtests the same recording with `--venue thin`, the same pair file and the same taker seed,
 * and compares the two fill by fill.
 *
 * One manual clock for everything — the recorded market's server, the embedded exchange, the bot
 * — moved from one due time to the next (a recorded frame, a simulated maker's re-post, the bot's
 * timers), each step waiting (on loopback I/O, never on time) until the market's frames are in,
 * the exchange is idle and the bot has its answers: the session sees the same market time
 * whatever the machine's speed. Only the start and the stop, paced while the bot's start-up and
 * shutdown run, depend on it; the venue's flow waits for the session's start record, so the
 * takers draw from the same reference trade in both runs wherever the start lands.
 * PARITY_SESSION_MS sets the session's length (docs/strategies.md quotes 150 s and 300 s).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, createRng, createSilentLogger, getChain } from '../../src/core/index.ts';
import { startFlowFollower, type FlowFollower } from '../../src/cli/flow-follow.ts';
import { startLiveRun, type LiveRun } from '../../src/cli/live.ts';
import { validatePairEnv } from '../../src/cli/pair-config.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { startFeedServer, type FeedServer } from '../../src/markets/binance/server/index.ts';
import { DEFAULT_REFERENCE_FLOW, startSim, type SimHandle } from '../../src/sim/index.ts';
import { attributesOf, hasBrowser, openInChromium } from '../backtest/report/chromium.ts';
import { runCli } from '../cli/run-cli.ts';
import { dataDir, recordingFiles, until } from '../markets/binance/support.ts';
import { silentIo } from './support.ts';

const SEED = 7;
/** The ETH recording's first receive time (its first line), ms. */
const FIRST_RECEIVE_MS = 1_723_161_254_024;
/**
 * The receive time of its first trades (a burst of eleven): the bot's start-up is paced in 1 ms
 * steps and never reaches it, so the session's start record, where the venue's flow and the
 * backtest's thin venue both begin, never shares a ms with a trade still on its way to the flow.
 */
const FIRST_TRADE_MS = 1_723_161_254_340;
const STEP_MS = 50;
/** Market time the session quotes for (after its start-up). */
const SESSION_MS = Number(process.env['PARITY_SESSION_MS'] ?? 150_000);
/** The pair file both runs read: the paper ladder. */
const PAIR_KEYS = ['BASE=ETH', 'QUOTE=USDC', 'STRATEGY=ladder', 'LADDER_LEVELS=2', 'LADDER_ORDER_SIZE=0.05', 'LADDER_BID_SPREAD_BPS=4', 'LADDER_ASK_SPREAD_BPS=4'];

let feed: FeedServer | undefined;
let follower: FlowFollower | undefined;
let sim: SimHandle | undefined;
let run: LiveRun | undefined;

afterEach(async () => {
  await sim?.stop();
  await follower?.stop();
  await feed?.stop();
  run = sim = follower = feed = undefined;
});

/**
 * Moves the clock `stepMs` per wall millisecond or so while `work` runs (start-up and shutdown wait
 * on timers), never past `untilMs`.
 */
async function paced<T>(clock: ManualClock, work: Promise<T>, stepMs = 10, untilMs = Number.POSITIVE_INFINITY): Promise<T> {
  let done = false;
  const pacing = (async () => {
    while (!done) {
      clock.advance(Math.max(0, Math.min(stepMs, untilMs - clock.nowMs())));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  })();
  try {
    return await work;
  } finally {
    done = true;
    await pacing;
  }
}

describe.skipIf(dataDir === undefined)('parity: paper on the embedded exchange against the backtest of its recording', () => {
  it('compares a paper session with the backtest of its recording: nine fills in ten matched one to one each way, paper\'s PnL inside the backtest\'s interval, the section in Chromium', { timeout: 600_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'akira-parity-'));
    // The replay starts at its first subscriber's time: the recording's first receive time, so the
    // session's times are the recording's receive times (the served market is a replay of them).
    const clock = new ManualClock(FIRST_RECEIVE_MS);
    const [recordedDay] = recordingFiles('ethusdt');
    feed = await startFeedServer({ files: [recordedDay as string], clock, loop: false });
    const server = feed;
    const following = startFlowFollower(server.wsUrl, server.symbol, { clock, rng: createRng(SEED + 1), logger: createSilentLogger(), chain: getChain('mainnet'), cwd: process.cwd(), depth: true });
    await until(() => server.stats().replay.loops > 0, 'the replay to start');
    follower = await paced(clock, following);
    const follow = follower;
    sim = await startSim({ seed: SEED, flow: true, follow, flowModel: 'reference', referenceFlow: { ...DEFAULT_REFERENCE_FLOW, takerSeed: SEED }, clock, devAccounts: 1, signatureWorkers: 0, logger: createSilentLogger() });
    const exchange = sim;
    // The venue's flow waits for the session (resumed once the bot has started): its takers then
    // draw for the reference's trades from the session's start, as the backtest's thin venue does
    // from the start of the span it replays.
    exchange.setFlowRunning(false);
    let flowResumedAtMs: number | undefined;
    /** The venue's flow resumes as the session's start record is written, at its time. */
    const resumeFlowAtStart = (timeMs: number): void => {
      flowResumedAtMs ??= timeMs;
      exchange.setFlowRunning(true);
    };
    const account = exchange.accounts[0];
    if (account?.privateKey === undefined) throw new Error('no dev account');

    const envPath = join(dir, 'pair.env');
    writeFileSync(envPath, `${PAIR_KEYS.join('\n')}\n`);
    const journalPath = join(dir, 'paper.journal');
    const config = validatePairEnv(
      {
        ...Object.fromEntries(PAIR_KEYS.map((line) => line.split('=') as [string, string])),
        EXCHANGE_HTTP_URL: exchange.httpUrl,
        EXCHANGE_WS_URL: exchange.wsUrl,
        CHAIN: 'mainnet',
        TRADING_ACCOUNT: feltToHex(account.address),
        SIGNER_PRIVATE_KEY: feltToHex(account.privateKey),
        METRICS_PORT: '0',
        LOG_LEVEL: 'silent',
      },
      'parity test',
    );
    let stop: (signal: string) => void = () => undefined;
    const stopSignal = new Promise<string>((resolve) => (stop = resolve));
    run = await paced(
      clock,
      startLiveRun({ config, io: silentIo(), logger: createSilentLogger(), stateDir: join(dir, 'state'), journalPath, keepJournalHistory: true, lockAccount: false, stopSignal, showStatus: false, signingWorkers: 0, clock, observerOf: () => ({ sessionStarted: resumeFlowAtStart }) }),
      1,
      FIRST_TRADE_MS - 1,
    );
    const engine = run.daemon.engine;
    expect(flowResumedAtMs).toBeLessThan(FIRST_TRADE_MS);

    /** Until the market's frames are in, the exchange is idle and the bot has every answer, three turns running. */
    const settle = async (): Promise<void> => {
      await server.whenIdle();
      let quiet = 0;
      let last = '';
      for (let turns = 0; quiet < 3; turns++) {
        if (turns > 20_000) throw new Error('the session did not settle');
        await new Promise((resolve) => setTimeout(resolve, 1));
        await exchange.idle();
        const busy = engine.hasWorkInFlight() || follow.framesReceived() < server.stats().streams.framesSent;
        const seen = `${exchange.ordersOf(account.address).length}/${exchange.openOrdersOf(account.address).length}`;
        quiet = busy || seen !== last ? 0 : quiet + 1;
        last = seen;
      }
    };
    // From event to event: each timer's due time (a recorded frame, a simulated maker's re-post,
    // the bot's own timers) is a step of its own, so everything happens at its exact time, as in
    // the backtest; at most STEP_MS at a time when nothing is due.
    const endMs = clock.nowMs() + SESSION_MS;
    while (clock.nowMs() < endMs) {
      const now = clock.nowMs();
      clock.advanceTo(Math.min(endMs, now + STEP_MS, Math.max(now, clock.nextDueMs() ?? Number.POSITIVE_INFINITY)));
      await settle();
    }
    stop('SIGTERM');
    expect(await paced(clock, run.daemon.done)).toBe(0);

    const journal = readFileSync(journalPath, 'utf8');
    expect(journal).toContain('"t":"fill"');
    const recording = join(dir, 'eth.data');
    expect((await runCli(['data', 'import', '--format', 'binance', recordedDay as string, '--out', recording])).code).toBe(0);
    const report = join(dir, 'parity.html');
    const { code, stdout, stderr } = await runCli(['parity', '--journal', journalPath, '--recording', recording, '--env', envPath, '--venue', 'thin', '--thin-taker-seed', String(SEED), '--json', '--report', report, '--backtest-journal', join(dir, 'backtest.journal')]);
    const seen = `${stdout}\n${stderr}`;
    expect(code, seen).toBe(0);
    // PARITY_PRINT=1: the figures docs/strategies.md quotes.
    if (process.env['PARITY_PRINT'] === '1') process.stdout.write(`${stdout}\n`);
    const result = JSON.parse(stdout.trimEnd().split('\n').pop() as string) as {
      matched_fills: number;
      matched_share_live: number | null;
      matched_share_backtest: number | null;
      live_pnl_inside_ci95: boolean | null;
      clock_offset_ms: number;
      live: Record<string, number>;
      backtest: Record<string, number>;
      unmatched: { cause: string; side: string }[];
    };
    const fillsOf = (side: Record<string, number>): number => (side['fills_buy'] ?? 0) + (side['fills_sell'] ?? 0);
    // The session traded, and was compared, on the recording's receive clock (the served recording replays at its receive times).
    // Each run's orders on both sides.
    for (const side of [result.live, result.backtest]) for (const key of ['orders_buy', 'orders_sell']) expect(side[key], `${key} ${seen}`).toBeGreaterThan(10);
    expect(result.clock_offset_ms).toBe(0);
    expect(stdout).toMatch(/orders buy \/ sell +\d+ \/ \d+ +\d+ \/ \d+/);
    // Every fill is matched or listed with its cause.
    expect(result.unmatched.filter((entry) => entry.side === 'live')).toHaveLength(fillsOf(result.live) - result.matched_fills);
    expect(result.unmatched.filter((entry) => entry.side === 'backtest')).toHaveLength(fillsOf(result.backtest) - result.matched_fills);
    for (const entry of result.unmatched) expect(['latency', 'queue-position', 'fees', 'unseen']).toContain(entry.cause);
    // The bar (issue 32; docs/parity.md "Tolerances"): nine fills in ten matched one to one each
    // way, paper's PnL inside the backtest's 95 % interval.
    expect(fillsOf(result.live), seen).toBeGreaterThanOrEqual(1);
    expect(fillsOf(result.backtest), seen).toBeGreaterThanOrEqual(1);
    expect(result.matched_share_live, seen).toBeGreaterThanOrEqual(0.9);
    expect(result.matched_share_backtest, seen).toBeGreaterThanOrEqual(0.9);
    expect(result.live_pnl_inside_ci95, seen).toBe(true);

    if (hasBrowser) {
      const view = openInChromium(readFileSync(report, 'utf8'), { width: 1280, height: 1600 });
      const section = attributesOf(view.dom, 'parity');
      expect(Number(section['data-matched'])).toBe(result.matched_fills);
      expect(Number(section['data-unmatched'])).toBe(result.unmatched.length);
      expect(view.dom).toContain('Parity: live against the backtest');
      expect(view.screenshot.length).toBeGreaterThan(10_000);
    }
  });

  it('akira-mm parity on the journal of `paper --reference --journal FILE` prints the side-by-side table', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'akira-parity-cli-'));
    const [recordedDay] = recordingFiles('ethusdt');
    const envPath = join(dir, 'pair.env');
    writeFileSync(envPath, `${PAIR_KEYS.join('\n')}\nLOG_LEVEL=silent\n`, { mode: 0o600 });
    const journalPath = join(dir, 'paper.journal');
    // A wall-clock session: what it trades depends on the machine; that it can be compared does not.
    const paper = await runCli(['paper', '--env', envPath, '--reference', '--reference-data', recordedDay as string, '--journal', journalPath, '--duration', '12']);
    expect(paper.code, paper.stderr).toBe(0);
    const journal = readFileSync(journalPath, 'utf8');
    // On the recording's clock: the session's first record is within seconds of the recording's start.
    const firstTime = Number(/"timeMs":(\d+)/.exec(journal)?.[1]);
    expect(firstTime - FIRST_RECEIVE_MS).toBeGreaterThanOrEqual(0);
    expect(firstTime - FIRST_RECEIVE_MS).toBeLessThan(60_000);
    const recording = join(dir, 'eth.data');
    expect((await runCli(['data', 'import', '--format', 'binance', recordedDay as string, '--out', recording])).code).toBe(0);
    const { code, stdout, stderr } = await runCli(['parity', '--journal', journalPath, '--recording', recording, '--env', envPath, '--thin-taker-seed', '0', '--json']);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^parity ETH\/USDC: 2024-08-08T23:5\d:\d\d\.\d{3}Z → /);
    expect(stdout).toMatch(/orders buy \/ sell +\d+ \/ \d+ +\d+ \/ \d+/);
    expect(stdout).toMatch(/PnL \(USDC\) +-?\d+\.\d{4} +-?\d+\.\d{4}/);
    expect(stdout).toMatch(/fills matched one to one: \d+/);
    const result = JSON.parse(stdout.trimEnd().split('\n').pop() as string) as { live: Record<string, number> };
    expect((result.live['orders_buy'] ?? 0) + (result.live['orders_sell'] ?? 0)).toBeGreaterThan(0);
  });
});
