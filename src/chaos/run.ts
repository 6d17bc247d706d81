/**
 * One chaos run: the embedded exchange in this process (synthetic flow on), the bot as a child
 * process, a seeded fault schedule played against both, then a graceful stop and the invariants
 * checked against the exchange's own state (see `invariants.ts`).
 *
 * Wall-clock parts (sampling, waiting for a real daemon) go through the injected `LiveClock`.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveClock, type Clock } from '../core/index.ts';
import { parseJournal, type JournalRecord } from '../engine/index.ts';
import { feltToHex } from '../exchange/wire/fields.ts';
import { startSim, type SimHandle, type SimOrder } from '../sim/index.ts';
import { encryptStarkKeystore } from '../exchange/signer/index.ts';
import { BotProcess, freePort, metricSum, writeEnvFile, type MetricSample } from './bot-process.ts';
import { type InvariantName, type Violation } from './invariants.ts';
import type { FaultKind, ScheduledFault } from './schedule.ts';

const BASE = 'ETH';
const QUOTE = 'USDC';
const POST_PATHS = ['/place_order', '/cancel_order', '/cancel_all', '/cancel_all_orders', '/increase_nonce'];
/** Longer than the client's 10 s headers timeout: the request times out, then applies. */
const LATE_APPLY_DELAY_MS = 11_000;
const SAMPLE_EVERY_MS = 200;
/** A restarted bot process boots (tsx, starknet, signing workers, startup cancel) before quoting: 5–15 s on a loaded 2-core box. */
const BOT_BOOT_ALLOWANCE_MS = 20_000;
/** Two live orders of ours at one side and price for this long = an intent placed twice. */
const DUPLICATE_GRACE_MS = 2_000;
/** Bot and exchange figures must agree to this many tokens (far below one fee or one lot). */
const TOKEN_TOLERANCE = 1e-9;

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
}

/** Everything one run produced. */
export interface RunResult {
  readonly seed: number;
  readonly faults: readonly FaultOutcome[];
  readonly violations: readonly Violation[];
  readonly botProcesses: number;
  /** Our orders the exchange saw, and fills of them. */
  readonly ordersOnExchange: number;
  readonly filledOrders: number;
  readonly wallMs: number;
  /** Every line the bot processes wrote and the harness logged (for the secrets scan). */
  readonly lines: readonly string[];
  /** The account's private key (so a caller can scan `lines` for it); never printed. */
  readonly privateKey: bigint;
  /** The password of the keystore the bot unlocks at every start (scanned for too); never printed. */
  readonly keystorePassword: string;
}

interface PendingResume {
  readonly index: number;
  readonly endMs: number;
  /** Only orders accepted after this venue time count (a restarted bot must quote anew). */
  readonly newOrdersAfterMs: number | undefined;
  /** A restarted bot counts as quoting only once it logged "engine started" (late-applied orders of the killed one do not). */
  readonly startedBot: BotProcess | undefined;
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
  const journalPath = join(dir, 'bot.journal');
  const sim = await startSim({ seed: options.seed, flow: true, signatureWorkers: 0, devAccounts: 1 });
  const account = sim.accounts[0];
  if (account?.privateKey === undefined) throw new Error('the embedded exchange has no dev account');
  const address = account.address;
  const envFile = join(dir, 'pair.env');
  // The bot unlocks its key from an encrypted keystore at every (re)start, as a desk runs it; the
  // scan looks for the password as well as the key. A cheap scrypt keeps restarts fast.
  const keystorePassword = `chaos-keystore-password-${options.seed}`;
  const scrypt = { n: 1024, r: 8, p: 1 };
  writeFileSync(join(dir, 'bot.keystore.json'), await encryptStarkKeystore(account.privateKey, keystorePassword, { scrypt, randomBytes: seededBytes(options.seed) }), { mode: 0o600 });
  writeFileSync(join(dir, 'bot.password'), `${keystorePassword}\n`, { mode: 0o600 });
  writeEnvFile(envFile, {
    EXCHANGE_HTTP_URL: sim.httpUrl,
    EXCHANGE_WS_URL: sim.wsUrl,
    CHAIN: 'mainnet',
    TRADING_ACCOUNT: feltToHex(address),
    SIGNER_KEYSTORE: 'bot.keystore.json',
    SIGNER_KEYSTORE_PASSWORD_FILE: 'bot.password',
    BASE,
    QUOTE,
    STRATEGY: 'ladder',
    LADDER_LEVELS: '2',
    LADDER_ORDER_SIZE: '0.05',
    LADDER_BID_SPREAD_BPS: '4',
    LADDER_ASK_SPREAD_BPS: '4',
    METRICS_PORT: String(await freePort()),
    LOG_LEVEL: 'info',
    STARTUP_ORDERS: 'cancel',
    RECONCILE_INTERVAL_S: '5',
    STALE_FEED_MS: String(staleFeedMs),
    SHUTDOWN_TIMEOUT_MS: '10000',
  });
  const metricsPort = Number(/METRICS_PORT=(\d+)/.exec(readFileSync(envFile, 'utf8'))?.[1]);

  const bots: BotProcess[] = [];
  const lastSamples = new Map<BotProcess, MetricSample>();
  const spawnBot = (): BotProcess => {
    const bot = new BotProcess(envFile, journalPath, metricsPort);
    bots.push(bot);
    log(`bot process ${bots.length} started (pid ${bot.pid ?? '?'})`);
    return bot;
  };
  let bot = spawnBot();

  // ── the sampler: resumption, duplicates, dead-man, metrics ──────────────────────────────
  const outcomes: { resumedAfterMs: number | undefined; deadManLatencyMs: number | undefined; staleDetectedAfterMs: number | undefined }[] = options.schedule.map(() => ({
    resumedAfterMs: undefined,
    deadManLatencyMs: undefined,
    staleDetectedAfterMs: undefined,
  }));
  let pending: PendingResume[] = [];
  const duplicateSince = new Map<string, number>();
  const reportedDuplicates = new Set<string>();
  let twoSidedSeen = false;
  let scraping = false;
  const sample = (): void => {
    const now = clock.nowMs();
    const open = sim.openOrdersOf(address);
    const sides = (orders: readonly SimOrder[]) => ({
      bids: orders.filter((order) => order.side === 'buy').length,
      asks: orders.filter((order) => order.side === 'sell').length,
    });
    const all = sides(open);
    if (all.bids > 0 && all.asks > 0) twoSidedSeen = true;
    pending = pending.filter((wait) => {
      if (now < wait.endMs) return true;
      if (wait.startedBot !== undefined && wait.startedBot.logsWithMessage('engine started').length === 0) return true;
      const counted = wait.newOrdersAfterMs === undefined ? all : sides(open.filter((order) => order.acceptedAtMs > (wait.newOrdersAfterMs ?? 0)));
      if (counted.bids > 0 && counted.asks > 0) {
        const slot = outcomes[wait.index];
        if (slot !== undefined) slot.resumedAfterMs = now - wait.endMs;
        return false;
      }
      return true;
    });
    const groups = new Map<string, string[]>();
    for (const order of open) {
      const key = `${order.side}@${order.request.price}`;
      groups.set(key, [...(groups.get(key) ?? []), order.hash.toString(16)]);
    }
    const live = new Set<string>();
    for (const [key, hashes] of groups) {
      if (hashes.length < 2) continue;
      const id = `${key}:${hashes.sort().join(',')}`;
      live.add(id);
      const since = duplicateSince.get(id) ?? now;
      duplicateSince.set(id, since);
      if (now - since >= DUPLICATE_GRACE_MS && !reportedDuplicates.has(id)) {
        reportedDuplicates.add(id);
        violate('no-duplicate-intent', `${hashes.length} of our orders live at ${key} for ${now - since} ms`);
      }
    }
    for (const id of duplicateSince.keys()) if (!live.has(id)) duplicateSince.delete(id);
    if (!scraping && bot.isAlive) {
      scraping = true;
      const current = bot;
      void current.scrape().then((metrics) => {
        scraping = false;
        if (metrics !== undefined) lastSamples.set(current, metrics);
      });
    }
  };
  const sampler = clock.setInterval(sample, SAMPLE_EVERY_MS);

  try {
    // ── start: wait for two-sided quotes ────────────────────────────────────────────────────
    const bootDeadline = clock.nowMs() + 45_000;
    while (!twoSidedSeen && clock.nowMs() < bootDeadline && bot.isAlive) await sleep(100);
    if (!twoSidedSeen) {
      violate('quoting-resumed', `the bot never quoted both sides within 45 s of starting (alive: ${bot.isAlive})`);
    } else {
      log(`quoting both sides after ${clock.nowMs() - startedMs} ms`);
      // ── the fault phase ───────────────────────────────────────────────────────────────────
      const phaseStartMs = clock.nowMs();
      let quietUntilMs = phaseStartMs;
      for (const [index, fault] of options.schedule.entries()) {
        const waitMs = phaseStartMs + fault.atMs - clock.nowMs();
        if (waitMs > 0) await sleep(waitMs);
        log(`fault ${index + 1}/${options.schedule.length}: ${fault.kind} for ${fault.durationMs} ms (rate ${fault.rate.toFixed(2)})`);
        const startMs = clock.nowMs();
        let newOrdersAfterMs: number | undefined;
        switch (fault.kind) {
          case 'bot-sigkill': {
            bot.signal('SIGKILL');
            const exit = await bot.exited;
            log(`bot killed (${exit.signal ?? exit.code})`);
            await sleep(fault.durationMs);
            bot = spawnBot();
            newOrdersAfterMs = startMs;
            break;
          }
          case 'exchange-restart':
            await sim.restartTransport(fault.durationMs);
            newOrdersAfterMs = startMs;
            break;
          case 'stale-feed': {
            // The socket stays up and the market keeps moving; the bot just hears nothing.
            sim.faults.set({ marketMuteRate: 1 });
            await sleep(fault.durationMs);
            // Measured from the bot's own "paused" log line (its decision, after STALE_FEED_MS
            // without market data) to the exchange's timestamp of the last of our cancels.
            const paused = bot
              .logsWithMessage('quoting paused; cancelling everything')
              .find((line) => line['reason'] === 'stale feed' && Number(line['time']) >= startMs);
            const stillOpen = sim.openOrdersOf(address).length;
            const slot = outcomes[index];
            if (paused !== undefined && stillOpen === 0 && slot !== undefined) {
              const pausedMs = Number(paused['time']);
              const lastCancelMs = sim
                .ordersOf(address)
                .filter((order) => order.status === 'CANCELLED' && order.updatedAtMs >= startMs)
                .reduce((latest, order) => Math.max(latest, order.updatedAtMs), pausedMs);
              slot.deadManLatencyMs = lastCancelMs - pausedMs;
              slot.staleDetectedAfterMs = pausedMs - startMs;
            } else {
              violate('quoting-resumed', `stale feed: ${paused === undefined ? 'the bot never paused' : `${stillOpen} order(s) still listed`} ${fault.durationMs} ms after the feed went quiet`);
            }
            sim.faults.reset();
            break;
          }
          case 'ws-drop':
            sim.faults.dropAllConnections();
            break;
          default:
            sim.faults.set(rateFault(fault.kind, fault.rate));
            await sleep(fault.durationMs);
            sim.faults.reset();
        }
        const endMs = clock.nowMs();
        const lateMs = fault.kind === 'post-timeout-applied-late' ? LATE_APPLY_DELAY_MS : 0;
        pending.push({ index, endMs: endMs + lateMs, newOrdersAfterMs, startedBot: fault.kind === 'bot-sigkill' ? bot : undefined });
        quietUntilMs = Math.max(quietUntilMs, endMs + lateMs);
      }
      // ── let the last recovery finish ──────────────────────────────────────────────────────
      const settleDeadline = Math.max(quietUntilMs + 1_000, clock.nowMs()) + resumeWithinMs + BOT_BOOT_ALLOWANCE_MS;
      while (pending.length > 0 && clock.nowMs() < settleDeadline) await sleep(100);
      if (clock.nowMs() < quietUntilMs + 1_000) await sleep(quietUntilMs + 1_000 - clock.nowMs());
    }
    for (const [index, fault] of options.schedule.entries()) {
      const resumed = outcomes[index]?.resumedAfterMs;
      const allowedMs = resumeWithinMs + allowanceMs(fault.kind);
      if (twoSidedSeen && (resumed === undefined || resumed > allowedMs)) {
        violate('quoting-resumed', `${fault.kind}: quoting ${resumed === undefined ? 'not seen' : `back after ${resumed} ms`} (limit ${allowedMs} ms after the fault)`);
      }
    }

    // ── quiesce and compare the bot's books with the exchange's ─────────────────────────────
    sim.setFlowRunning(false);
    const finalSample = await quiesce(bot, sim, address, clock, sleep);
    const journal = existsJournal(journalPath);
    checkFills(journal, sim, address, bots, lastSamples, finalSample, violate);
    checkInventory(sim, address, finalSample, violate);
    for (const process of bots) {
      for (const line of process.logsWithMessage('quoting halted')) {
        violate(String(line['reason']).includes('drift') ? 'no-unaccounted-fill' : 'clean-exit', `bot halted: ${String(line['reason'])}`);
      }
    }

    // ── graceful stop ───────────────────────────────────────────────────────────────────────
    if (bot.isAlive) {
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
    } else {
      violate('clean-exit', 'the bot died before the graceful stop');
    }
    await sim.idle();
    const left = sim.openOrdersOf(address);
    if (left.length > 0) violate('zero-open-orders', `${left.length} of our orders still open on the exchange after shutdown`);
    log(`run done: ${bots.length} bot process(es), ${countAll(sim, address).orders} orders on the exchange, ${violations.length} violation(s)`);
  } finally {
    sampler.cancel();
    for (const process of bots) process.signal('SIGKILL');
    await sim.stop();
    if (options.keepFiles !== true) rmSync(dir, { recursive: true, force: true });
  }
  const counts = countAll(sim, address);
  return {
    seed: options.seed,
    faults: options.schedule.map((fault, index) => ({
      kind: fault.kind,
      atMs: fault.atMs,
      durationMs: fault.durationMs,
      resumedAfterMs: outcomes[index]?.resumedAfterMs,
      deadManLatencyMs: outcomes[index]?.deadManLatencyMs,
      staleDetectedAfterMs: outcomes[index]?.staleDetectedAfterMs,
    })),
    violations,
    botProcesses: bots.length,
    ordersOnExchange: counts.orders,
    filledOrders: counts.filled,
    wallMs: clock.nowMs() - startedMs,
    lines: [...bots.flatMap((process) => process.lines), ...harnessLines],
    privateKey: account.privateKey,
    keystorePassword,
  };
}

/** Extra time a fault needs by its nature: a late-applied request, or booting a new bot process. */
function allowanceMs(kind: FaultKind): number {
  if (kind === 'post-timeout-applied-late') return LATE_APPLY_DELAY_MS;
  if (kind === 'bot-sigkill') return BOT_BOOT_ALLOWANCE_MS;
  return 0;
}

function rateFault(kind: FaultKind, rate: number): Parameters<SimHandle['faults']['set']>[0] {
  switch (kind) {
    case 'snap-gap':
      return { snapSkipRate: rate };
    case 'snap-duplicate':
      return { snapDuplicateRate: rate };
    case 'report-duplicate':
      return { reportDuplicateRate: rate };
    case 'report-reorder':
      return { reportReorderRate: rate };
    case 'post-5xx-not-applied':
      return { httpErrorRate: rate, failAfterApply: false, paths: POST_PATHS };
    case 'post-5xx-applied':
      return { httpErrorRate: rate, failAfterApply: true, paths: POST_PATHS };
    case 'post-reset-not-applied':
      return { httpResetRate: rate, failAfterApply: false, paths: POST_PATHS };
    case 'post-reset-applied':
      return { httpResetRate: rate, failAfterApply: true, paths: POST_PATHS };
    case 'post-timeout-applied-late':
      return { httpDelayRate: rate, httpDelayMs: LATE_APPLY_DELAY_MS, paths: ['/place_order', '/cancel_order'] };
    case 'rate-limit-burst':
      return { httpRateLimitRate: rate, rateLimitSleepMs: 200, paths: [] };
    default:
      return {};
  }
}

function countAll(sim: SimHandle, address: bigint): { orders: number; filled: number } {
  return sim.ordersOf(address).reduce(
    (acc, order) => ({ orders: acc.orders + 1, filled: acc.filled + (order.filledBase > 0n ? 1 : 0) }),
    { orders: 0, filled: 0 },
  );
}

function existsJournal(path: string): JournalRecord[] {
  try {
    return parseJournal(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

/** Waits until the bot's inventory and the exchange's balances stop moving; returns the last scrape. */
async function quiesce(
  bot: BotProcess,
  sim: SimHandle,
  address: bigint,
  clock: Clock,
  sleep: (ms: number) => Promise<void>,
): Promise<MetricSample | undefined> {
  const deadline = clock.nowMs() + 8_000;
  let previous = '';
  let stableFor = 0;
  let last: MetricSample | undefined;
  await sleep(500);
  while (clock.nowMs() < deadline) {
    await sim.idle();
    last = await bot.scrape();
    const fingerprint = JSON.stringify([
      metricSum(last, 'akira_mm_inventory_base'),
      metricSum(last, 'akira_mm_inventory_quote'),
      metricSum(last, 'akira_mm_filled_base_total'),
      exchangeTotal(sim, address, BASE).toString(),
      exchangeTotal(sim, address, QUOTE).toString(),
    ]);
    stableFor = fingerprint === previous ? stableFor + 1 : 0;
    previous = fingerprint;
    if (stableFor >= 3) return last;
    await sleep(250);
  }
  return last;
}

function exchangeTotal(sim: SimHandle, address: bigint, token: string): bigint {
  const holding = sim.balancesOf(address).get(token);
  return holding === undefined ? 0n : holding.free + holding.locked;
}

function tokens(units: bigint, token: string): number {
  return Number(units) / 10 ** (token === QUOTE ? 6 : 18);
}

function checkInventory(sim: SimHandle, address: bigint, sample: MetricSample | undefined, violate: (name: InvariantName, detail: string) => void): void {
  if (sample === undefined) {
    violate('inventory-matches-exchange', 'could not read the bot\'s inventory (metrics unreachable)');
    return;
  }
  for (const [token, metric] of [
    [BASE, 'akira_mm_inventory_base'],
    [QUOTE, 'akira_mm_inventory_quote'],
  ] as const) {
    const exchange = tokens(exchangeTotal(sim, address, token), token);
    const bot = metricSum(sample, metric);
    if (Math.abs(exchange - bot) > TOKEN_TOLERANCE) violate('inventory-matches-exchange', `${token}: bot ${bot}, exchange ${exchange}`);
  }
}

/**
 * Fills: every exchange order of ours has a journal intent (nothing placed behind the journal's
 * back); the last bot process counted exactly the fills the exchange made on the orders it
 * placed; earlier (killed) processes never counted more than the exchange made (no phantoms).
 */
function checkFills(
  journal: readonly JournalRecord[],
  sim: SimHandle,
  address: bigint,
  bots: readonly BotProcess[],
  lastSamples: ReadonlyMap<BotProcess, MetricSample>,
  finalSample: MetricSample | undefined,
  violate: (name: InvariantName, detail: string) => void,
): void {
  const segments: Set<bigint>[] = [];
  const allIntents = new Set<bigint>();
  for (const record of journal) {
    if (record.t === 'start') segments.push(new Set());
    if (record.t === 'intent') {
      const hash = BigInt(record.orderId);
      allIntents.add(hash);
      segments.at(-1)?.add(hash);
    }
  }
  const orders = sim.ordersOf(address);
  const unjournaled = orders.filter((order) => !allIntents.has(order.hash));
  if (unjournaled.length > 0) violate('no-duplicate-intent', `${unjournaled.length} order(s) on the exchange have no journal intent`);
  const filledBy = (hashes: ReadonlySet<bigint>, side: 'buy' | 'sell'): number =>
    tokens(
      orders.filter((order) => order.side === side && hashes.has(order.hash)).reduce((sum, order) => sum + order.filledBase, 0n),
      BASE,
    );
  // A process killed while booting writes no `start` record: segments then pair with processes
  // only from the end (the last process always started: it quoted and was stopped gracefully).
  const offset = bots.length - segments.length;
  for (const [index, process] of bots.entries()) {
    if (index < offset) continue;
    const segment = segments[index - offset] ?? new Set<bigint>();
    const isLast = index === bots.length - 1;
    const sample = isLast ? finalSample : lastSamples.get(process);
    for (const side of ['buy', 'sell'] as const) {
      const exchange = filledBy(segment, side);
      const bot = metricSum(sample, 'akira_mm_filled_base_total', `side="${side}"`);
      if (isLast && Math.abs(exchange - bot) > TOKEN_TOLERANCE) {
        violate('no-unaccounted-fill', `last bot process counted ${bot} ${BASE} ${side} filled; the exchange filled ${exchange} on its orders`);
      }
      if (!isLast && offset === 0 && bot > exchange + TOKEN_TOLERANCE) {
        violate('no-unaccounted-fill', `bot process ${index + 1} counted ${bot} ${BASE} ${side} filled, more than the exchange's ${exchange}`);
      }
    }
  }
}

/** Deterministic salt/IV bytes for the run's keystore (the run repeats from its seed). */
function seededBytes(seed: number): (size: number) => Uint8Array {
  let draw = 0;
  return (size) => Uint8Array.from(createHash('sha256').update(`chaos keystore ${seed}/${draw++}`).digest().subarray(0, size));
}
