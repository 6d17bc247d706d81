/**
 * What a chaos run watches while faults play, sampled from the exchange's own state every 200 ms:
 * whether both sides of every pair are quoted again after each fault (by the bot process that
 * should be quoting), whether two of our orders rest at one side and price for too long (an intent placed
 * twice), and the bot's latest `/metrics` figures.
 */
import type { Clock, Timer } from '../../src/core/index.ts';
import type { SimHandle, SimOrder } from '../../src/sim/index.ts';
import type { BotProcess, MetricSample } from './bot-process.ts';
import type { InvariantName } from './invariants.ts';

const SAMPLE_EVERY_MS = 200;
/** Two live orders of ours at one side and price for this long = an intent placed twice. */
const DUPLICATE_GRACE_MS = 2_000;

/** A fault whose recovery is being waited for. */
export interface ResumeWait {
  readonly index: number;
  /** Quoting is measured from here (the fault's end, or a late-applied request's). */
  readonly endMs: number;
  /** Only orders accepted after this venue time count (a restarted bot must quote anew). */
  readonly newOrdersAfterMs: number | undefined;
  /** A restarted bot counts as quoting only once it logged "engine started" (late-applied orders of the killed one do not). */
  readonly startedBot: BotProcess | undefined;
}

/** Samples the exchange and the bot. */
export class Sampler {
  /** Fault index → ms from its end until both sides were quoted again. */
  readonly resumedAfterMs = new Map<number, number>();
  readonly lastSamples = new Map<BotProcess, MetricSample>();
  twoSidedSeen = false;
  private waits: ResumeWait[] = [];
  private readonly duplicateSince = new Map<string, number>();
  private readonly reportedDuplicates = new Set<string>();
  private scraping = false;
  private timer: Timer | undefined;

  constructor(
    private readonly sim: SimHandle,
    private readonly address: bigint,
    private readonly clock: Clock,
    private readonly currentBot: () => BotProcess,
    private readonly violate: (invariant: InvariantName, detail: string) => void,
    /** The pairs the bot quotes (`BASE-QUOTE`): each must show both sides. */
    private readonly pairs: readonly string[],
  ) {}

  start(): void {
    this.timer = this.clock.setInterval(() => this.sample(), SAMPLE_EVERY_MS);
  }

  stop(): void {
    this.timer?.cancel();
  }

  /** Waits for both sides to be quoted again after a fault. */
  awaitResume(wait: ResumeWait): void {
    this.waits.push(wait);
  }

  /** True while this fault's recovery has not been seen. */
  isWaiting(index: number): boolean {
    return this.waits.some((wait) => wait.index === index);
  }

  hasWaits(): boolean {
    return this.waits.length > 0;
  }

  private sample(): void {
    const now = this.clock.nowMs();
    const open = this.sim.openOrdersOf(this.address);
    if (this.everyPairTwoSided(open)) this.twoSidedSeen = true;
    this.waits = this.waits.filter((wait) => {
      if (now < wait.endMs) return true;
      if (wait.startedBot !== undefined && wait.startedBot.logsWithMessage('engine started').length === 0) return true;
      const counted = wait.newOrdersAfterMs === undefined ? open : open.filter((order) => order.acceptedAtMs > (wait.newOrdersAfterMs ?? 0));
      if (this.everyPairTwoSided(counted)) {
        this.resumedAfterMs.set(wait.index, now - wait.endMs);
        return false;
      }
      return true;
    });
    this.checkDuplicates(open, now);
    const bot = this.currentBot();
    if (!this.scraping && bot.isAlive) {
      this.scraping = true;
      void bot.scrape().then((metrics) => {
        this.scraping = false;
        if (metrics !== undefined) this.lastSamples.set(bot, metrics);
      });
    }
  }

  private everyPairTwoSided(orders: readonly SimOrder[]): boolean {
    return this.pairs.every((pair) => {
      const { bids, asks } = sides(orders.filter((order) => pairOf(order) === pair));
      return bids > 0 && asks > 0;
    });
  }

  private checkDuplicates(open: readonly SimOrder[], now: number): void {
    const groups = new Map<string, string[]>();
    for (const order of open) {
      const key = `${pairOf(order)} ${order.side}@${order.request.price}`;
      groups.set(key, [...(groups.get(key) ?? []), order.hash.toString(16)]);
    }
    const live = new Set<string>();
    for (const [key, hashes] of groups) {
      if (hashes.length < 2) continue;
      const id = `${key}:${hashes.sort().join(',')}`;
      live.add(id);
      const since = this.duplicateSince.get(id) ?? now;
      this.duplicateSince.set(id, since);
      if (now - since >= DUPLICATE_GRACE_MS && !this.reportedDuplicates.has(id)) {
        this.reportedDuplicates.add(id);
        this.violate('no-duplicate-intent', `${hashes.length} of our orders live at ${key} for ${now - since} ms`);
      }
    }
    for (const id of this.duplicateSince.keys()) if (!live.has(id)) this.duplicateSince.delete(id);
  }
}

/** `BASE-QUOTE` of an order's book. */
export function pairOf(order: SimOrder): string {
  return `${order.market.base.symbol}-${order.market.quote.symbol}`;
}

function sides(orders: readonly SimOrder[]): { bids: number; asks: number } {
  let bids = 0;
  let asks = 0;
  for (const order of orders) {
    if (order.side === 'buy') bids++;
    else asks++;
  }
  return { bids, asks };
}
