/**
 * One hedge chaos run (`npm run chaos -- --hedge`): the whole cross-venue loop in this process
 * (the embedded exchange with fast synthetic flow, a recorded Binance market served as the hedge
 * venue by `akira-mm feed --accounts`, the bot quoting a ladder and hedging every fill), a seeded
 * schedule of hedge faults played against the hedge venue, then the invariants checked against
 * both venues' own books:
 * - `net-within-cap`: the net position across both venues never past the inventory cap plus the
 *   hedge venue's smallest hedge (sampled every 100 ms);
 * - `no-unhedged-fill`: once the faults end and the bot settles, the base our fills moved on the
 *   embedded exchange and the base our hedges moved on the hedge venue cancel out, but for dust;
 * - `no-double-hedge`: every hedge order has its own client id, and the hedges moved no more base
 *   than the fills did;
 * - `zero-open-orders`: after a graceful stop nothing of ours rests on either venue.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { LiveClock, createLogger, createRng, getChain, type Clock } from '../../src/core/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { startSim } from '../../src/sim/index.ts';
import { startLiveRun } from '../../src/cli/live.ts';
import { defaultHedgeRecording, startPaperHedge } from '../../src/cli/paper-hedge.ts';
import { validatePairEnv } from '../../src/cli/pair-config.ts';
import { applyHedgeFault, type HedgeFaultKind, type ScheduledHedgeFault } from './hedge-faults.ts';

/** The invariants of a hedge run (keys of its report). */
export const HEDGE_INVARIANTS = ['net-within-cap', 'no-unhedged-fill', 'no-double-hedge', 'zero-open-orders'] as const;
export type HedgeInvariant = (typeof HEDGE_INVARIANTS)[number];

/** Options of one run. */
export interface HedgeRunOptions {
  readonly seed: number;
  readonly schedule: readonly ScheduledHedgeFault[];
  /** Recording served as the hedge market; default the shared ETHUSDT files. */
  readonly recording?: readonly string[];
  readonly log?: (line: string) => void;
  readonly clock?: Clock;
}

/** What one run produced. */
export interface HedgeRunResult {
  readonly seed: number;
  readonly faults: readonly HedgeFaultKind[];
  readonly violations: readonly { readonly invariant: HedgeInvariant; readonly detail: string }[];
  readonly fills: number;
  readonly hedges: number;
  readonly hedgesFailed: number;
  readonly maxAbsNetBase: number;
  readonly wallMs: number;
  /** Every log line the bot wrote (for the secrets scan), and the hedge API secret (never printed). */
  readonly lines: readonly string[];
  readonly secret: string;
}

/** The bot's inventory cap and order size in these runs, ETH. */
const CAP = 0.3;
const ORDER_SIZE = 0.05;

/** Runs one hedge chaos run to the end; a failure of the bot is a violation, never a throw. */
export async function runHedgeChaos(options: HedgeRunOptions): Promise<HedgeRunResult> {
  const clock = options.clock ?? new LiveClock();
  const startedMs = clock.nowMs();
  const log = options.log ?? (() => undefined);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => clock.setTimeout(resolve, ms));
  const violations: { invariant: HedgeInvariant; detail: string }[] = [];
  const violate = (invariant: HedgeInvariant, detail: string): void => {
    violations.push({ invariant, detail });
    log(`VIOLATION ${invariant}: ${detail}`);
  };
  const quiet = createLogger({ level: 'silent' });
  const lines: string[] = [];
  const botLogger = createLogger({
    level: 'info',
    destination: {
      write: (line: string) => {
        lines.push(line);
      },
    },
  });
  const hedge = await startPaperHedge(options.recording ?? defaultHedgeRecording(), { clock, rng: createRng(options.seed), logger: quiet, chain: getChain('mainnet'), cwd: process.cwd() });
  const sim = await startSim({ seed: options.seed, flow: { takerRatePerSec: 3, takerSizeMultiple: 20 }, follow: hedge.follower, flowModel: 'poisson', signatureWorkers: 0, devAccounts: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'akira-hedge-chaos-'));
  const account = sim.accounts[0];
  if (account?.privateKey === undefined) throw new Error('the embedded exchange has no dev account');
  const apiKey = hedge.env['HEDGE_API_KEY'] as string;
  const trading = hedge.trading;
  let stop!: (why: string) => void;
  const stopSignal = new Promise<string>((resolve) => (stop = resolve));
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const config = validatePairEnv(
    {
      BASE: 'ETH',
      QUOTE: 'USDC',
      CHAIN: 'mainnet',
      EXCHANGE_HTTP_URL: sim.httpUrl,
      EXCHANGE_WS_URL: sim.wsUrl,
      TRADING_ACCOUNT: feltToHex(account.address),
      SIGNER_PRIVATE_KEY: feltToHex(account.privateKey),
      STRATEGY: 'ladder',
      LADDER_LEVELS: '2',
      LADDER_ORDER_SIZE: String(ORDER_SIZE),
      LADDER_BID_SPREAD_BPS: '3',
      LADDER_ASK_SPREAD_BPS: '3',
      LADDER_INVENTORY_SKEW: 'on',
      RISK_MAX_INVENTORY_BASE: String(CAP),
      METRICS_PORT: '0',
      LOG_LEVEL: 'silent',
      HEDGE_MAX_RETRIES: '20',
      HEDGE_MAX_DELAY_MS: '1000',
      ...hedge.env,
    },
    'hedge chaos',
  );
  const baseOf = (holding: { free: bigint; locked: bigint } | undefined): bigint => (holding === undefined ? 0n : holding.free + holding.locked);
  const laStart = baseOf(sim.balancesOf(account.address).get('ETH'));
  const deskBase = (): bigint => trading.desk.balances(apiKey).reduce((sum, balance) => (balance.asset === trading.desk.rules.base ? sum + balance.free + balance.locked : sum), 0n);
  const hedgeStart = deskBase();
  let maxAbsNet = 0;
  let fills = 0;
  let hedges = 0;
  let hedgesFailed = 0;
  try {
    const run = await startLiveRun({ config, io: { stdout: sink, stderr: sink, stdin: process.stdin, env: {}, cwd: dir }, logger: botLogger, journalPath: join(dir, 'bot.journal'), stopSignal, showStatus: false, signingWorkers: 0 });
    const engine = run.daemon.engine;
    const minimumHedge = (): number => 5 / Math.max(1, engine.status().fair ?? 2_000) + 0.0001;
    const sampler = clock.setInterval(() => {
      const status = engine.status();
      maxAbsNet = Math.max(maxAbsNet, Math.abs(status.position));
      if (Math.abs(status.position) > CAP + minimumHedge() + 1e-9) violate('net-within-cap', `net position ${status.position} ETH past the cap ${CAP} plus one hedge`);
    }, 100);
    try {
      const phaseMs = clock.nowMs();
      for (const fault of options.schedule) {
        const waitMs = phaseMs + fault.atMs - clock.nowMs();
        if (waitMs > 0) await sleep(waitMs);
        log(`fault ${fault.kind} for ${fault.durationMs} ms`);
        const active = applyHedgeFault(fault, trading, apiKey);
        await sleep(fault.durationMs);
        active.end();
      }
      // Let the last hedges settle: retries back off up to 10 s.
      const settleBy = clock.nowMs() + 25_000;
      sim.setFlowRunning(false);
      await sleep(1_000);
      while (clock.nowMs() < settleBy) {
        const status = engine.status().hedge;
        if (status !== undefined && status.state === 'ok' && Math.abs(status.uncoveredBase - status.dustBase) < 1e-12) break;
        await sleep(100);
      }
    } finally {
      sampler.cancel();
    }
    const status = engine.status();
    fills = status.pnl.fills;
    hedges = status.hedge?.hedgesSent ?? 0;
    hedgesFailed = status.hedge?.hedgesFailed ?? 0;
    const laMoved = baseOf(sim.balancesOf(account.address).get('ETH')) - laStart;
    const hedgeMoved = (deskBase() - hedgeStart) * 10n ** 10n;
    const residual = Number(laMoved + hedgeMoved) / 1e18;
    if (Math.abs(residual) > minimumHedge() + 1e-9) violate('no-unhedged-fill', `fills moved ${Number(laMoved) / 1e18} ETH, hedges ${Number(hedgeMoved) / 1e18} ETH: ${residual} ETH unhedged (hedger ${status.hedge?.state ?? '?'}${status.hedge?.reason === undefined ? '' : `: ${status.hedge.reason}`})`);
    const ids = trading.desk.placed.map((order) => order.clientOrderId);
    if (new Set(ids).size !== ids.length) violate('no-double-hedge', 'a client order id was used twice');
    if ((status.hedge?.hedgedVolumeBase ?? 0) > (status.hedge?.filledVolumeBase ?? 0) + 1e-12) violate('no-double-hedge', `hedges moved ${status.hedge?.hedgedVolumeBase} ETH, fills ${status.hedge?.filledVolumeBase} ETH`);
    stop('end of run');
    await run.daemon.done;
    await sim.idle();
    const leftLa = sim.openOrdersOf(account.address).length;
    const leftHedge = trading.desk.openOrders(apiKey).length;
    if (leftLa + leftHedge > 0) violate('zero-open-orders', `${leftLa} order(s) on the embedded exchange, ${leftHedge} on the hedge venue after the stop`);
  } catch (error) {
    violate('zero-open-orders', `the bot failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    stop('cleanup');
    await sim.stop();
    await hedge.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  log(`run done: ${fills} fills, ${hedges} hedges (${hedgesFailed} failed), max |net| ${maxAbsNet.toFixed(4)} ETH, ${violations.length} violation(s)`);
  return { seed: options.seed, faults: options.schedule.map((fault) => fault.kind), violations, fills, hedges, hedgesFailed, maxAbsNetBase: maxAbsNet, wallMs: clock.nowMs() - startedMs, lines, secret: hedge.env['HEDGE_API_SECRET'] as string };
}
