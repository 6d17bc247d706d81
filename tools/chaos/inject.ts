/**
 * How each fault kind is played against the exchange, the network between it and the bot, and
 * the bot's host, and what the run then expects of the bot (see `schedule.ts` for the kinds and
 * `invariants.ts` for what is checked). One function per kind; the run calls `injectFault`.
 */
import type { Clock } from '../../src/core/index.ts';
import type { SimHandle, SimOrder } from '../../src/sim/index.ts';
import type { BotProcess } from './bot-process.ts';
import type { Violate } from './checks.ts';
import { pairOf } from './sampler.ts';
import type { ScheduledFault } from './schedule.ts';
import type { WsProxy } from './ws-proxy.ts';

const POST_PATHS = ['/place_order', '/cancel_order', '/cancel_all', '/cancel_all_orders', '/increase_nonce'];
/** Longer than the client's 10 s headers timeout: the request times out, then applies. */
export const LATE_APPLY_DELAY_MS = 11_000;
/** A new bot process boots (the compiled CLI, the startup cancel) before quoting again. */
export const BOT_BOOT_ALLOWANCE_MS = 15_000;
/** After five failed placements in a minute the engine pauses quoting this long (`venue-alerts.ts`). */
const PLACE_FAILURE_PAUSE_MS = 30_000;
/** How long the bot's reaction to the venue's last report may trail a fault's end (reports, a log line through a pipe). */
const REPORTS_TRAIL_MS = 3_000;
/** A clock step's size, ms (issue 13: ±2 s on the bot's host). */
const CLOCK_STEP_MS = 2_000;
/** The slow-consumer drop limits the venue may apply, bytes (the fault's rate picks one). */
const SLOW_CONSUMER_LIMITS = [256, 16_384] as const;
/** A halted bot must have pulled every order of ours within this long (cancel-all and its confirmation). */
const PULL_WITHIN_MS = 5_000;
/** A paused bot's cancel-all must have emptied the book of ours within this long of the pause. */
const PULL_AFTER_PAUSE_MS = 2_000;

/** What a fault may use and do. */
export interface FaultContext {
  readonly sim: SimHandle;
  readonly proxy: WsProxy;
  readonly clock: Clock;
  readonly address: bigint;
  readonly staleFeedMs: number;
  /** The chaos hooks' control file in the bot (`bot-hooks.mjs`). */
  readonly controlFile: string;
  /** The pairs (`BASE-QUOTE`) whose market-data stream this fault strikes (snap faults, stale feed); undefined = every pair's. */
  readonly streamPairs?: readonly string[];
  sleep(ms: number): Promise<void>;
  log(line: string): void;
  violate: Violate;
  /** The bot process quoting now. */
  bot(): BotProcess;
  /** Starts a new bot process (same env file and journal) and makes it the current one. */
  spawnBot(): BotProcess;
}

/** What a fault leaves for the run to check. */
export interface FaultEffect {
  /** Only orders accepted after this venue time count as quoting again (a new process must quote anew). */
  readonly newOrdersAfterMs?: number;
  /** A new bot process: it counts as quoting only once it logged "engine started". */
  readonly startedBot?: BotProcess;
  /** Recovery is measured from this long after the fault's end (a request applied late). */
  readonly lateMs?: number;
  /** Extra time the recovery may take, by the fault's nature. */
  readonly allowanceMs?: number;
  /** Stale feed: the bot's pause decision → the exchange's timestamp of our last cancel, ms. */
  readonly deadManLatencyMs?: number;
  /** Stale feed: market data stopped → the bot paused, ms. */
  readonly staleDetectedAfterMs?: number;
  /** False when the fault window caught nothing to act on (no placement, no cancel…). */
  readonly struck: boolean;
  /** The bot halted on purpose (the journal's disk full); its halt is not a violation. */
  readonly expectedHalt?: BotProcess;
}

type Injector = (fault: ScheduledFault, context: FaultContext, startMs: number) => Promise<FaultEffect>;

/** Sets sim fault settings for the fault's duration, then back to none. */
async function withSimFaults(context: FaultContext, fault: ScheduledFault, settings: Parameters<SimHandle['faults']['set']>[0]): Promise<void> {
  context.sim.faults.set({ ...settings, streamPairs: context.streamPairs ?? [] });
  await context.sleep(fault.durationMs);
  context.sim.faults.reset();
}

/** Waits until `done` holds or `withinMs` passes; true when it held. */
async function waitUntil(context: FaultContext, done: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = context.clock.nowMs() + withinMs;
  while (!done()) {
    if (context.clock.nowMs() >= deadline) return false;
    await context.sleep(100);
  }
  return true;
}

function pausedLine(bot: BotProcess, reason: string, sinceMs: number): Record<string, unknown> | undefined {
  return pausedLines(bot, reason, sinceMs)[0];
}

/** The bot's pause lines for this reason since then, of these pairs (`BASE-QUOTE`) only when given. */
function pausedLines(bot: BotProcess, reason: string, sinceMs: number, pairs?: readonly string[]): Record<string, unknown>[] {
  return bot
    .logsWithMessage('quoting paused; cancelling everything')
    .filter((line) => String(line['reason']) === reason && Number(line['time']) >= sinceMs && (pairs === undefined || pairs.includes(linePair(line))));
}

/** A log line's pair as `BASE-QUOTE` (the daemon logs `BASE/QUOTE`). */
function linePair(line: Record<string, unknown>): string {
  return String(line['pair']).replace('/', '-');
}

const simRate = (settings: (rate: number) => Parameters<SimHandle['faults']['set']>[0]): Injector => async (fault, context) => {
  await withSimFaults(context, fault, settings(fault.rate));
  return { struck: true };
};

const INJECTORS: Readonly<Record<ScheduledFault['kind'], Injector>> = {
  'ws-drop': async (_fault, context) => ({ struck: context.sim.faults.dropAllConnections() > 0 }),
  'snap-gap': simRate((rate) => ({ snapSkipRate: rate })),
  'snap-duplicate': simRate((rate) => ({ snapDuplicateRate: rate })),
  'report-duplicate': simRate((rate) => ({ reportDuplicateRate: rate })),
  'report-reorder': simRate((rate) => ({ reportReorderRate: rate })),
  'post-5xx-not-applied': simRate((rate) => ({ httpErrorRate: rate, failAfterApply: false, paths: POST_PATHS })),
  'post-5xx-applied': simRate((rate) => ({ httpErrorRate: rate, failAfterApply: true, paths: POST_PATHS })),
  'post-reset-not-applied': simRate((rate) => ({ httpResetRate: rate, failAfterApply: false, paths: POST_PATHS })),
  'post-reset-applied': simRate((rate) => ({ httpResetRate: rate, failAfterApply: true, paths: POST_PATHS })),
  'post-timeout-applied-late': async (fault, context) => {
    await withSimFaults(context, fault, { httpDelayRate: fault.rate, httpDelayMs: LATE_APPLY_DELAY_MS, paths: ['/place_order', '/cancel_order'] });
    return { struck: true, lateMs: LATE_APPLY_DELAY_MS, allowanceMs: LATE_APPLY_DELAY_MS };
  },
  'rate-limit-burst': simRate((rate) => ({ httpRateLimitRate: rate, rateLimitSleepMs: 200, paths: [] })),
  'exchange-restart': async (fault, context, startMs) => {
    await context.sim.restartTransport(fault.durationMs);
    return { struck: true, newOrdersAfterMs: startMs };
  },
  'bot-sigkill': async (fault, context, startMs) => {
    context.bot().signal('SIGKILL');
    const exit = await context.bot().exited;
    context.log(`bot killed (${exit.signal ?? exit.code})`);
    await context.sleep(fault.durationMs);
    const bot = context.spawnBot();
    return { struck: true, newOrdersAfterMs: startMs, startedBot: bot, allowanceMs: BOT_BOOT_ALLOWANCE_MS };
  },
  'stale-feed': async (fault, context, startMs) => {
    // The socket stays up and the market keeps moving; the bot just hears nothing (of the
    // targeted pairs' books, in a run with several pairs: the others' must flow on).
    const targets = context.streamPairs;
    context.sim.faults.set({ marketMuteRate: 1, streamPairs: targets ?? [] });
    const endMs = startMs + fault.durationMs;
    const ours = (): SimOrder[] => context.sim.openOrdersOf(context.address).filter((order) => targets === undefined || targets.includes(pairOf(order)));
    const pauseLines = (): Record<string, unknown>[] => pausedLines(context.bot(), 'stale feed', startMs, targets);
    const everyTargetPaused = (): boolean => (targets === undefined ? pauseLines().length > 0 : targets.every((target) => pauseLines().some((line) => linePair(line) === target)));
    const paused = await waitUntil(context, everyTargetPaused, fault.durationMs);
    const pulled = paused && (await waitUntil(context, () => ours().length === 0, Math.max(PULL_AFTER_PAUSE_MS, endMs - context.clock.nowMs())));
    if (context.clock.nowMs() < endMs) await context.sleep(endMs - context.clock.nowMs());
    context.sim.faults.reset();
    if (targets !== undefined) {
      const others = [...new Set(pausedLines(context.bot(), 'stale feed', startMs).map(linePair).filter((pair) => !targets.includes(pair)))];
      if (others.length > 0) context.violate('pairs-independent', `a stale feed on ${targets.join(' + ')} paused ${others.join(', ')} too`);
    }
    const line = pauseLines()[0];
    if (!paused || !pulled || line === undefined) {
      context.violate('orders-pulled', `stale feed${targets === undefined ? '' : ` on ${targets.join(' + ')}`}: ${paused ? `${ours().length} order(s) still listed ${PULL_AFTER_PAUSE_MS} ms after the bot paused` : `the bot never paused within ${fault.durationMs} ms of the feed going quiet`}`);
      return { struck: true };
    }
    // Measured from the bot's own "paused" log line (its decision, after STALE_FEED_MS without
    // market data) to the exchange's timestamp of the last of our cancels.
    const pausedMs = Number(line['time']);
    const lastCancelMs = context.sim
      .ordersOf(context.address)
      .filter((order) => order.status === 'CANCELLED' && order.updatedAtMs >= startMs && (targets === undefined || targets.includes(pairOf(order))))
      .reduce((latest, order) => Math.max(latest, order.updatedAtMs), pausedMs);
    return { struck: true, deadManLatencyMs: lastCancelMs - pausedMs, staleDetectedAfterMs: pausedMs - startMs };
  },
  'place-fails-after-accept': async (fault, context, startMs) => {
    const before = context.sim.faults.stats.ordersFailed;
    await withSimFaults(context, fault, { queuedOrderFailRate: fault.rate });
    // Five failures in a minute pause quoting for 30 s on purpose (the venue refuses us for a reason
    // we do not see). The failures' reports and the bot's pause line trail the fault's end (more so
    // on a loaded host: campaign seed 2841482104 missed the line, gave no allowance and injected the
    // next fault into the pause), so once the venue failed any order (earlier failures of the
    // minute count too), wait for the line a little.
    const failed = context.sim.faults.stats.ordersFailed > before;
    const paused = (): boolean => pausedLine(context.bot(), 'venue failing orders', startMs) !== undefined;
    const pausedOnPurpose = paused() || (failed && (await waitUntil(context, paused, REPORTS_TRAIL_MS)));
    return { struck: failed, ...(pausedOnPurpose ? { allowanceMs: PLACE_FAILURE_PAUSE_MS } : {}) };
  },
  'cancel-fails-after-accept': async (fault, context) => {
    const before = context.sim.faults.stats.cancelsFailed;
    await withSimFaults(context, fault, { queuedCancelFailRate: fault.rate });
    return { struck: context.sim.faults.stats.cancelsFailed > before };
  },
  'cancel-all-fails': async (fault, context, startMs) => {
    // The feed goes quiet, the bot pulls its quotes with a cancel-all, and the venue fails it
    // after its 200: the bot must find its orders still resting and pull them anyway.
    const before = context.sim.faults.stats.queuedActionsFailed;
    context.sim.faults.set({ marketMuteRate: 1, queuedActionFailRate: 1 });
    const paused = await waitUntil(context, () => pausedLine(context.bot(), 'stale feed', startMs) !== undefined, fault.durationMs - 2_000);
    await waitUntil(context, () => context.sim.faults.stats.queuedActionsFailed > before, 1_000);
    context.sim.faults.set({ queuedActionFailRate: 0 });
    const pulled = await waitUntil(context, () => context.sim.openOrdersOf(context.address).length === 0, Math.max(500, startMs + fault.durationMs - context.clock.nowMs()));
    if (!paused || !pulled) {
      context.violate('orders-pulled', `cancel-all failed after its 200: ${paused ? `${context.sim.openOrdersOf(context.address).length} order(s) still listed` : 'the bot never paused'} ${context.clock.nowMs() - startMs} ms after the feed went quiet`);
    }
    const waitMs = startMs + fault.durationMs - context.clock.nowMs();
    if (waitMs > 0) await context.sleep(waitMs);
    context.sim.faults.reset();
    return { struck: context.sim.faults.stats.queuedActionsFailed > before };
  },
  'partial-fill-cancel-race': async (fault, context) => {
    // A fast market makes the bot cancel often; takers fill part of an order as its cancel is
    // accepted, and some reports arrive out of order.
    const before = context.sim.faults.stats.cancelRaceFills;
    context.sim.setMarketStorm(true);
    await withSimFaults(context, fault, { cancelRaceFillRate: fault.rate, reportReorderRate: 0.3 });
    context.sim.setMarketStorm(false);
    return { struck: context.sim.faults.stats.cancelRaceFills > before };
  },
  'rate-limit-storm': async (fault, context, startMs) => {
    // The bot wants to requote every 100 ms; its outbound budget must keep it under the venue's
    // rate limit (checked over the whole run: `few-429s`).
    context.sim.setMarketStorm(true);
    await context.sleep(fault.durationMs);
    context.sim.setMarketStorm(false);
    const orders = context.sim.ordersOf(context.address);
    const placed = orders.filter((order) => order.acceptedAtMs >= startMs).length;
    const cancelled = orders.filter((order) => order.status === 'CANCELLED' && order.updatedAtMs >= startMs).length;
    context.log(`storm: ${placed} placements and ${cancelled} cancels in ${fault.durationMs} ms; ${context.sim.rateLimitedOf(context.address)} refused by the venue's limit so far`);
    return { struck: placed + cancelled > 0 };
  },
  'ws-split-merge': async (fault, context) => {
    const before = context.sim.faults.stats.fragmentedMessages;
    const writesBefore = context.proxy.stats.rechunkedWrites;
    context.proxy.setMode({ kind: 'rechunk' });
    await withSimFaults(context, fault, { wsFragmentRate: fault.rate });
    context.proxy.setMode({ kind: 'pass' });
    return { struck: context.sim.faults.stats.fragmentedMessages > before || context.proxy.stats.rechunkedWrites > writesBefore };
  },
  'slow-consumer': async (fault, context, startMs) => {
    const [low, high] = SLOW_CONSUMER_LIMITS;
    const dropAboveBytes = Math.round(low + (high - low) * fault.rate);
    const dropsBefore = context.proxy.stats.slowConsumerDrops;
    context.proxy.setMode({ kind: 'hold', dropAboveBytes });
    const bot = context.bot();
    bot.signal('SIGSTOP');
    await context.sleep(fault.durationMs);
    bot.signal('SIGCONT');
    context.proxy.setMode({ kind: 'pass' });
    const dropped = context.proxy.stats.slowConsumerDrops > dropsBefore;
    context.log(`slow consumer: frozen ${fault.durationMs} ms, ${dropped ? 'dropped by the venue' : 'backlog delivered'} (limit ${dropAboveBytes} B)`);
    if (!dropped) return { struck: true };
    // Thawed, the bot only now reads that the venue dropped it and pauses ("feed down"); its quotes
    // rested all along, so they would count as quoting again and the next fault would land in the
    // bot's reaction (a clock step then saw a "feed down" pause of this fault's making). Recovery
    // counts from the pause, with orders placed after it.
    await waitUntil(context, () => pausedLine(bot, 'feed down', startMs) !== undefined, REPORTS_TRAIL_MS);
    const pause = pausedLine(bot, 'feed down', startMs);
    return { struck: true, ...(pause === undefined ? {} : { newOrdersAfterMs: Number(pause['time']) }) };
  },
  'rollup-fails': async (fault, context) => {
    // The double's rollups (every 500 ms in a campaign) revert their Trade events as failed while
    // the fault lasts; the bot is not told (as on chain), so only the settlement check sees it.
    const before = context.sim.faults.stats.rollupsFailed;
    await withSimFaults(context, fault, { rollupFailRate: fault.rate });
    return { struck: context.sim.faults.stats.rollupsFailed > before };
  },
  'clock-step': async (fault, context) => {
    const stepMs = fault.rate < 0.5 ? -CLOCK_STEP_MS : CLOCK_STEP_MS;
    const bot = context.bot();
    // The bot's log times step too: count its pause lines rather than compare their times.
    const pausesBefore = bot.logsWithMessage('quoting paused; cancelling everything').length;
    bot.control(context.controlFile, { clockOffsetMs: stepMs });
    await context.sleep(fault.durationMs);
    bot.control(context.controlFile, { clockOffsetMs: 0 });
    await context.sleep(500);
    context.log(`clock stepped ${stepMs > 0 ? '+' : ''}${stepMs} ms for ${fault.durationMs} ms, then back`);
    // The market never stopped: a step of the wall clock is no reason to pull the quotes.
    const pauses = bot.logsWithMessage('quoting paused; cancelling everything').slice(pausesBefore);
    if (pauses.length > 0) context.violate('clock-step-tolerated', `a ${stepMs} ms clock step paused quoting (${pauses.map((line) => String(line['reason'])).join(', ')})`);
    return { struck: true };
  },
  'journal-disk-full': async (_fault, context, startMs) => {
    const bot = context.bot();
    bot.control(context.controlFile, { diskFull: true });
    const halted = await waitUntil(context, () => bot.logsWithMessage('quoting halted').some((line) => String(line['reason']).includes('journal')), 8_000);
    const haltLine = bot.logsWithMessage('quoting halted').find((line) => String(line['reason']).includes('journal'));
    const haltedAtMs = haltLine === undefined ? undefined : Number(haltLine['time']);
    const pulled = halted && (await waitUntil(context, () => context.sim.openOrdersOf(context.address).length === 0, PULL_WITHIN_MS));
    if (!halted) context.violate('journal-full-halts', `the journal's disk filled and the bot did not halt naming it within 8 s (alive: ${bot.isAlive})`);
    else if (!pulled) context.violate('journal-full-halts', `halted on the full disk, but ${context.sim.openOrdersOf(context.address).length} order(s) still listed ${PULL_WITHIN_MS} ms later`);
    if (haltedAtMs !== undefined) {
      const after = context.sim.ordersOf(context.address).filter((order) => order.acceptedAtMs > haltedAtMs + 50);
      if (after.length > 0) context.violate('journal-full-halts', `${after.length} order(s) accepted after the halt on the full disk`);
    }
    // The operator frees the disk and restarts the bot.
    bot.signal('SIGTERM');
    let timer: { cancel(): void } | undefined;
    const exit = await Promise.race([bot.exited, new Promise<undefined>((resolve) => (timer = context.clock.setTimeout(() => resolve(undefined), 15_000)))]);
    timer?.cancel();
    if (exit === undefined) {
      bot.signal('SIGKILL');
      context.violate('clean-exit', 'the bot halted on the full disk did not exit within 15 s of SIGTERM');
      await bot.exited;
    }
    const next = context.spawnBot();
    return { struck: true, newOrdersAfterMs: startMs, startedBot: next, allowanceMs: BOT_BOOT_ALLOWANCE_MS, expectedHalt: bot };
  },
  // The run's stop: see `stopWithExchangeDown` (the schedule always puts it last).
  'exchange-down-at-sigterm': async () => ({ struck: true }),
};

/** Plays one fault; resolves once it is over (the run then waits for the bot's recovery). */
export function injectFault(fault: ScheduledFault, context: FaultContext, startMs: number): Promise<FaultEffect> {
  return INJECTORS[fault.kind](fault, context, startMs);
}

/**
 * The run's end with the exchange unreachable: SIGTERM while the exchange refuses every
 * connection. The bot must exit non-zero within SHUTDOWN_TIMEOUT_MS, its last words naming every
 * order the exchange still lists; then a new bot, started once the exchange is back, cancels
 * those leftovers at start and stops cleanly.
 */
export async function stopWithExchangeDown(context: FaultContext, shutdownTimeoutMs: number): Promise<void> {
  const bot = context.bot();
  const downMs = shutdownTimeoutMs + 3_000;
  const restarted = context.sim.restartTransport(downMs);
  await context.sleep(50);
  const signalledMs = context.clock.nowMs();
  bot.signal('SIGTERM');
  let timer: { cancel(): void } | undefined;
  // Process exit takes a moment after the daemon gives up; 1 s of slack over the limit.
  const exit = await Promise.race([bot.exited, new Promise<undefined>((resolve) => (timer = context.clock.setTimeout(() => resolve(undefined), shutdownTimeoutMs + 1_000)))]);
  timer?.cancel();
  const tookMs = context.clock.nowMs() - signalledMs;
  if (exit === undefined) {
    context.violate('shutdown-names-resting', `with the exchange unreachable the bot did not exit within SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs} ms) + 1 s of SIGTERM`);
    bot.signal('SIGKILL');
    await bot.exited;
  } else if (exit.code === 0) {
    context.violate('shutdown-names-resting', `with the exchange unreachable the bot exited 0 after ${tookMs} ms, as if nothing rested`);
  }
  await restarted;
  const left = context.sim.openOrdersOf(context.address).map((order) => `0x${order.hash.toString(16)}`);
  const named = new Set(bot.logsWithMessage('shutdown: the venue did not confirm that nothing of ours rests; these orders may still rest').flatMap((line) => (Array.isArray(line['orders']) ? (line['orders'] as unknown[]).map((id) => String(id).toLowerCase()) : [])));
  const unnamed = left.filter((id) => ![...named].some((name) => BigInt(name) === BigInt(id)));
  if (unnamed.length > 0) context.violate('shutdown-names-resting', `${unnamed.length} of the ${left.length} order(s) still resting were not named at exit (${named.size} named)`);
  context.log(`exchange down at SIGTERM: exit ${exit?.code ?? exit?.signal ?? 'none'} after ${tookMs} ms; ${left.length} order(s) left resting, ${named.size} named`);
  // The exchange is back: a new bot cancels the leftovers at start.
  const next = context.spawnBot();
  await waitUntil(context, () => next.logsWithMessage('engine started').length > 0 || !next.isAlive, BOT_BOOT_ALLOWANCE_MS + 10_000);
}
