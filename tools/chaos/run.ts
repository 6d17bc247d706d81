/**
 * One chaos run: the embedded exchange in this process (synthetic flow on), a TCP proxy on its
 * WebSocket port, the bot as a child process (with the host-fault hooks preloaded), a seeded
 * fault schedule played against all three, then a stop and the invariants checked against the
 * exchange's own state (see `invariants.ts`).
 *
 * With `pairs: 2` the bot quotes ETH/USDC and STRK/USDC of ONE dev account from one process
 * (`run --env ETH-USDC.env --env STRK-USDC.env`): the invariants are checked per pair (quoting,
 * fills) and on the account (its ledger against the exchange's balances, every book empty at the
 * end), and `snap` and stale-feed faults strike one pair's stream, the other's, or both (drawn from the seed).
 *
 * Each fault starts once the previous one has recovered (both sides quoted again) and a short
 * drawn gap has passed, so runs are as short as the bot's recoveries allow. Wall-clock parts go
 * through the injected `LiveClock`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveClock, createRng, type Clock, type Rng } from '../../src/core/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { startSim, type SimHandle } from '../../src/sim/index.ts';
import { encryptStarkKeystore } from '../../src/exchange/signer/index.ts';
import { BotProcess, freePort, writeEnvFile, type MetricSample } from './bot-process.ts';
import { SINGLE_PAIR, checkFills, checkInventory, countAll, quiesce, readJournal, type ChaosPair } from './checks.ts';
import { injectFault, stopWithExchangeDown, type FaultContext, type FaultEffect } from './inject.ts';
import { type InvariantName, type Violation } from './invariants.ts';
import { Sampler, pairOf } from './sampler.ts';
import type { FaultKind, ScheduledFault } from './schedule.ts';
import { WsProxy } from './ws-proxy.ts';

/** The venue's rate limit in chaos runs: a little above the bot's outbound budget (10/s, burst 20), so a budget that leaks meets 429s. */
const VENUE_RATE_LIMIT = { perSecond: 12, burst: 24 };
/** At most this many 429s from the venue's own limit per run ("a handful"). */
const MAX_RATE_LIMITED = 5;
const SHUTDOWN_TIMEOUT_MS = 5_000;

/** The pairs of a run with several pairs on one account, and each one's ladder size (the shipped pair files' sizes). */
const ACCOUNT_PAIRS: readonly (ChaosPair & { readonly orderSize: string })[] = [
  { base: 'ETH', quote: 'USDC', orderSize: '0.05' },
  { base: 'STRK', quote: 'USDC', orderSize: '150' },
];
/** The most pairs a run can quote on its one account. */
export const MAX_CHAOS_PAIRS = ACCOUNT_PAIRS.length;

/** Options of one run. */
export interface RunOptions {
  readonly seed: number;
  readonly schedule: readonly ScheduledFault[];
  /** Quoting must be back on both sides this soon after a fault ends; default 10 000 ms. */
  readonly resumeWithinMs?: number;
  /** The bot's STALE_FEED_MS; default 3000. */
  readonly staleFeedMs?: number;
  /** Progress lines (the harness's own log). */
  readonly log?: (line: string) => void;
  readonly clock?: Clock;
  /** Keep the temp dir (env file, journal) for inspection. */
  readonly keepFiles?: boolean;
  /** Pairs the bot quotes on its one account, from one process: 1 (ETH/USDC, default) or 2 (+ STRK/USDC). */
  readonly pairs?: number;
}

/** What happened to one fault. */
export interface FaultOutcome {
  readonly kind: FaultKind;
  readonly atMs: number;
  readonly durationMs: number;
  /** Time from the fault's end until both sides were quoted again; undefined = not seen. */
  readonly resumedAfterMs: number | undefined;
  /** For stale-feed faults: the bot's pause decision → the exchange's timestamp of our last cancel, ms. */
  readonly deadManLatencyMs: number | undefined;
  /** For stale-feed faults: market data stopped (flow paused) → the bot paused, ms (≥ STALE_FEED_MS). */
  readonly staleDetectedAfterMs: number | undefined;
  /** False when the fault window caught nothing to act on. */
  readonly struck: boolean;
  /** The pairs whose stream a `snap` or stale-feed fault struck (`BASE-QUOTE`), in a run with several pairs. */
  readonly targetPairs?: readonly string[];
}

/** Everything one run produced. */
export interface RunResult {
  readonly seed: number;
  /** Pairs quoted on the one account. */
  readonly pairs: number;
  readonly faults: readonly FaultOutcome[];
  readonly violations: readonly Violation[];
  readonly botProcesses: number;
  /** Our orders the exchange saw, and fills of them. */
  readonly ordersOnExchange: number;
  readonly filledOrders: number;
  /** The same by pair (`BASE-QUOTE`). */
  readonly byPair: Readonly<Record<string, { readonly orders: number; readonly filled: number }>>;
  /** Requests of ours the venue's own rate limit refused (429). */
  readonly rateLimited: number;
  readonly wallMs: number;
  /** Every line the bot processes wrote and the harness logged (for the secrets scan). */
  readonly lines: readonly string[];
  /** The account's private key (so a caller can scan `lines` for it); never printed. */
  readonly privateKey: bigint;
  /** The password of the keystore the bot unlocks at every start (scanned for too); never printed. */
  readonly keystorePassword: string;
}

/** Runs one chaos run to the end; never throws for a bot or exchange failure (those are violations). */
export async function runChaos(options: RunOptions): Promise<RunResult> {
  const clock = options.clock ?? new LiveClock();
  const startedMs = clock.nowMs();
  const resumeWithinMs = options.resumeWithinMs ?? 10_000;
  const staleFeedMs = options.staleFeedMs ?? 3_000;
  const harnessLines: string[] = [];
  const log = (line: string): void => {
    harnessLines.push(line);
    options.log?.(line);
  };
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => clock.setTimeout(resolve, ms));
  const violations: Violation[] = [];
  const violate = (invariant: InvariantName, detail: string): void => {
    violations.push({ invariant, detail });
    log(`VIOLATION ${invariant}: ${detail}`);
  };

  const dir = mkdtempSync(join(tmpdir(), 'akira-chaos-'));
  const stateDir = join(dir, 'state');
  mkdirSync(stateDir);
  const journalPath = join(stateDir, 'bot.journal');
  const pairCount = options.pairs ?? 1;
  if (!Number.isInteger(pairCount) || pairCount < 1 || pairCount > MAX_CHAOS_PAIRS) throw new Error(`a chaos run quotes 1 to ${MAX_CHAOS_PAIRS} pairs, not ${pairCount}`);
  const pairs: readonly (ChaosPair & { readonly orderSize: string })[] = pairCount === 1 ? [{ ...(SINGLE_PAIR[0] as ChaosPair), orderSize: '0.05' }] : ACCOUNT_PAIRS.slice(0, pairCount);
  const pairLabels = pairs.map((pair) => `${pair.base}-${pair.quote}`);
  const controlFile = join(dir, 'bot-control.json');
  const sim = await startSim({ seed: options.seed, flow: true, signatureWorkers: 0, devAccounts: 1, settings: { rateLimit: VENUE_RATE_LIMIT }, rollupMs: 500 });
  const proxy = new WsProxy(sim.port, clock, createRng(options.seed).fork('ws-proxy'));
  const proxyPort = await proxy.start();
  const account = sim.accounts[0];
  if (account?.privateKey === undefined) throw new Error('the embedded exchange has no dev account');
  const address = account.address;
  const envFiles = pairCount === 1 ? [join(dir, 'pair.env')] : pairs.map((pair) => join(dir, `${pair.base}-${pair.quote}.env`));
  // The bot unlocks its key from an encrypted keystore at every (re)start, as a desk runs it; the
  // scan looks for the password as well as the key. A cheap scrypt keeps restarts fast.
  const keystorePassword = `chaos-keystore-password-${options.seed}`;
  const scrypt = { n: 1024, r: 8, p: 1 };
  writeFileSync(join(dir, 'bot.keystore.json'), await encryptStarkKeystore(account.privateKey, keystorePassword, { scrypt, randomBytes: seededBytes(options.seed) }), { mode: 0o600 });
  writeFileSync(join(dir, 'bot.password'), `${keystorePassword}\n`, { mode: 0o600 });
  const metricsPort = await freePort();
  for (const [index, pair] of pairs.entries()) writeEnvFile(envFiles[index] as string, {
    EXCHANGE_HTTP_URL: sim.httpUrl,
    EXCHANGE_WS_URL: `ws://127.0.0.1:${proxyPort}/ws`,
    CHAIN: 'mainnet',
    TRADING_ACCOUNT: feltToHex(address),
    SIGNER_KEYSTORE: 'bot.keystore.json',
    SIGNER_KEYSTORE_PASSWORD_FILE: 'bot.password',
    BASE: pair.base,
    QUOTE: pair.quote,
    STRATEGY: 'ladder',
    LADDER_LEVELS: '2',
    LADDER_ORDER_SIZE: pair.orderSize,
    LADDER_BID_SPREAD_BPS: '4',
    LADDER_ASK_SPREAD_BPS: '4',
    METRICS_PORT: String(metricsPort),
    LOG_LEVEL: 'info',
    STARTUP_ORDERS: 'cancel',
    RECONCILE_INTERVAL_S: '5',
    STALE_FEED_MS: String(staleFeedMs),
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
  });

  const bots: BotProcess[] = [];
  let bot: BotProcess;
  const spawnBot = (): BotProcess => {
    bot = new BotProcess(pairCount === 1 ? (envFiles[0] as string) : envFiles, journalPath, metricsPort, { controlFile, diskDir: stateDir });
    bots.push(bot);
    log(`bot process ${bots.length} started (pid ${bot.pid ?? '?'})`);
    return bot;
  };
  bot = spawnBot();
  const sampler = new Sampler(sim, address, clock, () => bot, violate, pairLabels);
  // Which pair's stream each `snap` fault strikes: a fork of its own, so the schedule (and every
  // single-pair campaign's replay) stays as drawn.
  const targetRng = createRng(options.seed).fork('chaos-target-pair');
  const targets = options.schedule.map((fault) => (pairCount > 1 && STREAM_KINDS.has(fault.kind) ? (fault.pairs ?? drawTargets(targetRng, pairLabels)) : undefined));
  sampler.start();
  const context: FaultContext = { sim, proxy, clock, address, staleFeedMs, controlFile, sleep, log, violate, bot: () => bot, spawnBot };
  const effects: (FaultEffect | undefined)[] = options.schedule.map(() => undefined);
  const expectedHalts = new Set<BotProcess>();

  try {
    // ── start: wait for two-sided quotes ────────────────────────────────────────────────────
    const bootDeadline = clock.nowMs() + 45_000;
    while (!sampler.twoSidedSeen && clock.nowMs() < bootDeadline && bot.isAlive) await sleep(100);
    let endsWithExchangeDown = false;
    if (!sampler.twoSidedSeen) {
      violate('quoting-resumed', `the bot never quoted both sides within 45 s of starting (alive: ${bot.isAlive})`);
    } else {
      log(`quoting both sides after ${clock.nowMs() - startedMs} ms`);
      // ── the fault phase ─────────────────────────────────────────────────────────────────
      let previous: { index: number; limitMs: number; endMs: number } | undefined;
      for (const [index, fault] of options.schedule.entries()) {
        const prior = options.schedule[index - 1];
        const gapMs = prior === undefined ? fault.atMs : fault.atMs - (prior.atMs + prior.durationMs);
        if (previous !== undefined) {
          const waitFor = previous;
          while (sampler.isWaiting(waitFor.index) && clock.nowMs() < waitFor.limitMs) await sleep(100);
        }
        await sleep(gapMs);
        if (fault.kind === 'exchange-down-at-sigterm') {
          endsWithExchangeDown = true;
          break;
        }
        const target = targets[index];
        log(`fault ${index + 1}/${options.schedule.length}: ${fault.kind} for ${fault.durationMs} ms (rate ${fault.rate.toFixed(2)})${target === undefined ? '' : ` on ${target.join(' + ')}`}`);
        const startMs = clock.nowMs();
        const effect = await injectFault(fault, target === undefined ? context : { ...context, streamPairs: target }, startMs);
        effects[index] = effect;
        if (effect.expectedHalt !== undefined) expectedHalts.add(effect.expectedHalt);
        const endMs = clock.nowMs() + (effect.lateMs ?? 0);
        sampler.awaitResume({ index, endMs, newOrdersAfterMs: effect.newOrdersAfterMs, startedBot: effect.startedBot });
        previous = { index, endMs, limitMs: endMs + resumeWithinMs + (effect.allowanceMs ?? 0) };
      }
      // ── let the last recovery finish ──────────────────────────────────────────────────────
      if (previous !== undefined) {
        const last = previous;
        while (sampler.hasWaits() && clock.nowMs() < last.limitMs) await sleep(100);
        if (clock.nowMs() < last.endMs + 1_000) await sleep(last.endMs + 1_000 - clock.nowMs());
      }
    }
    for (const [index, fault] of options.schedule.entries()) {
      const effect = effects[index];
      if (effect === undefined) continue;
      const resumed = sampler.resumedAfterMs.get(index);
      const allowedMs = resumeWithinMs + (effect.allowanceMs ?? 0);
      if (resumed === undefined || resumed > allowedMs) {
        violate('quoting-resumed', `${fault.kind}: quoting ${resumed === undefined ? 'not seen' : `back after ${resumed} ms`} (limit ${allowedMs} ms after the fault)`);
      }
    }

    // ── quiesce and compare the bot's books with the exchange's ─────────────────────────────
    sim.setFlowRunning(false);
    const finalSample: MetricSample | undefined = await quiesce(bot, sim, address, clock, sleep, pairs);
    checkFills(readJournal(journalPath), sim, address, bots, sampler.lastSamples, finalSample, violate, pairs);
    checkInventory(sim, address, finalSample, violate, pairs);
    for (const process of bots) {
      for (const line of process.logsWithMessage('quoting halted')) {
        const reason = String(line['reason']);
        if (expectedHalts.has(process) && reason.includes('journal')) continue;
        violate(reason.includes('drift') ? 'no-unaccounted-fill' : 'clean-exit', `bot halted: ${reason}`);
      }
    }
    const rateLimited = sim.rateLimitedOf(address);
    if (rateLimited > MAX_RATE_LIMITED) violate('few-429s', `the venue's rate limit refused ${rateLimited} of our requests (more than ${MAX_RATE_LIMITED})`);

    // ── stop: with the exchange unreachable, or gracefully ──────────────────────────────────
    if (endsWithExchangeDown && bot.isAlive) {
      log('fault: exchange-down-at-sigterm');
      await stopWithExchangeDown(context, SHUTDOWN_TIMEOUT_MS);
    }
    await stopGracefully(bot, clock, violate);
    await sim.idle();
    const left = sim.openOrdersOf(address);
    if (left.length > 0) violate('zero-open-orders', `${left.length} of our orders still open on the exchange after shutdown (${pairLabels.map((label) => `${label}: ${left.filter((order) => pairOf(order) === label).length}`).join(', ')})`);
    const counted = countAll(sim, address);
    const perPair = pairCount === 1 ? '' : ` (${pairLabels.map((label) => `${label}: ${countPair(sim, address, label).orders} / ${countPair(sim, address, label).filled} filled`).join(', ')})`;
    log(`run done: ${bots.length} bot process(es), ${counted.orders} orders on the exchange${perPair}, ${rateLimited} rate-limited, ${violations.length} violation(s)`);
  } finally {
    sampler.stop();
    for (const process of bots) {
      process.signal('SIGCONT');
      process.signal('SIGKILL');
    }
    await proxy.stop();
    await sim.stop();
    if (options.keepFiles !== true) rmSync(dir, { recursive: true, force: true });
  }
  const counts = countAll(sim, address);
  return {
    seed: options.seed,
    pairs: pairCount,
    faults: options.schedule.map((fault, index) => ({
      kind: fault.kind,
      atMs: fault.atMs,
      durationMs: fault.durationMs,
      resumedAfterMs: sampler.resumedAfterMs.get(index),
      deadManLatencyMs: effects[index]?.deadManLatencyMs,
      staleDetectedAfterMs: effects[index]?.staleDetectedAfterMs,
      struck: effects[index]?.struck ?? fault.kind === 'exchange-down-at-sigterm',
      ...(targets[index] === undefined ? {} : { targetPairs: targets[index] }),
    })),
    violations,
    botProcesses: bots.length,
    ordersOnExchange: counts.orders,
    filledOrders: counts.filled,
    byPair: Object.fromEntries(pairLabels.map((label) => [label, countPair(sim, address, label)])),
    rateLimited: sim.rateLimitedOf(address),
    wallMs: clock.nowMs() - startedMs,
    lines: [...bots.flatMap((process) => process.lines), ...harnessLines],
    privateKey: account.privateKey,
    keystorePassword,
  };
}

/** Our orders on one pair's books, and how many of them filled. */
function countPair(sim: SimHandle, address: bigint, label: string): { orders: number; filled: number } {
  const orders = sim.ordersOf(address).filter((order) => pairOf(order) === label);
  return { orders: orders.length, filled: orders.filter((order) => order.filledBase > 0n).length };
}

/** Faults on the market-data stream of a book (`streamPairs` aims them at one pair's). */
const STREAM_KINDS: ReadonlySet<FaultKind> = new Set(['snap-gap', 'snap-duplicate', 'stale-feed']);

/** One pair's stream, another's, or every pair's, evenly. */
function drawTargets(rng: Rng, pairs: readonly string[]): readonly string[] {
  const pick = rng.int(pairs.length + 1);
  return pick === pairs.length ? pairs : [pairs[pick] as string];
}

/** SIGTERM, then the bot must exit 0 within 30 s. */
async function stopGracefully(bot: BotProcess, clock: Clock, violate: (invariant: InvariantName, detail: string) => void): Promise<void> {
  if (!bot.isAlive) {
    violate('clean-exit', 'the bot died before the graceful stop');
    return;
  }
  bot.signal('SIGTERM');
  let timer: { cancel(): void } | undefined;
  const exit = await Promise.race([bot.exited, new Promise<undefined>((resolve) => (timer = clock.setTimeout(() => resolve(undefined), 30_000)))]);
  timer?.cancel();
  if (exit === undefined) {
    bot.signal('SIGKILL');
    violate('clean-exit', 'the bot did not exit within 30 s of SIGTERM');
  } else if (exit.code !== 0) {
    violate('clean-exit', `the bot exited with ${exit.code ?? exit.signal ?? '?'} after SIGTERM`);
  }
}

/** Deterministic salt/IV bytes for the run's keystore (the run repeats from its seed). */
function seededBytes(seed: number): (size: number) => Uint8Array {
  let draw = 0;
  return (size) => Uint8Array.from(createHash('sha256').update(`chaos keystore ${seed}/${draw++}`).digest().subarray(0, size));
}
