/**
 * Fault schedules for chaos runs, drawn from a seed: which faults, when, for how long and how
 * hard. Pure: the same seed and run index give the same schedule on every machine (the wall-clock
 * timing of a real daemon reacting to it is of course not deterministic).
 */
import { createRng, type Rng } from '../../src/core/index.ts';

/** Every fault kind a run can inject. */
export const FAULT_KINDS = [
  'ws-drop',
  'snap-gap',
  'snap-duplicate',
  'report-duplicate',
  'report-reorder',
  'post-5xx-not-applied',
  'post-5xx-applied',
  'post-reset-not-applied',
  'post-reset-applied',
  'post-timeout-applied-late',
  'rate-limit-burst',
  'exchange-restart',
  'bot-sigkill',
  'stale-feed',
  // The venue's real failure modes (issue 13 item 2).
  'place-fails-after-accept',
  'cancel-fails-after-accept',
  'cancel-all-fails',
  'partial-fill-cancel-race',
  'rate-limit-storm',
  'ws-split-merge',
  'slow-consumer',
  'clock-step',
  // The chain's: a rollup of the Starknet double fails (issue 31 item 3).
  'rollup-fails',
  'journal-disk-full',
  'exchange-down-at-sigterm',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Kinds that end the bot's life and so happen at most once in a run: a full disk halts the bot
 * (the harness then frees the disk and starts a new one), and the exchange unreachable at SIGTERM
 * is how the run stops, so it is always last.
 */
const ONCE_PER_RUN: ReadonlySet<FaultKind> = new Set(['journal-disk-full', 'exchange-down-at-sigterm']);

/** One scheduled fault: active on [atMs, atMs + durationMs) of the run's fault phase. */
export interface ScheduledFault {
  readonly kind: FaultKind;
  /** Offset from the start of the fault phase (the bot quoting both sides), ms. */
  readonly atMs: number;
  /** How long the fault is active (for restarts and kills: how long the process stays down), ms. */
  readonly durationMs: number;
  /** Probability per request/event while active (rate faults); 1 for one-shot faults. */
  readonly rate: number;
  /** In a run with several pairs: the pairs (`BASE-QUOTE`) whose market-data stream it strikes (snap faults, stale feed); absent = drawn by the run from its seed. */
  readonly pairs?: readonly string[];
}

/** Shape of a schedule. */
export interface ScheduleOptions {
  /** Faults per run; default 3. */
  readonly faultsPerRun?: number;
  /**
   * Quiet time between one fault's recovery (both sides quoted again, or the resume limit) and
   * the next fault, drawn in [min, max] ms; default 1000–2000.
   */
  readonly gapMs?: readonly [number, number];
  /** Kinds to draw from; default all. */
  readonly kinds?: readonly FaultKind[];
  /** The bot's STALE_FEED_MS (a stale-feed fault must outlast it); default 3000, as `runChaos`. */
  readonly staleFeedMs?: number;
}

/** The seed of run `index` of a campaign seeded with `seed` (so runs can be replayed one by one). */
export function runSeed(seed: number, index: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}

function between(rng: Rng, min: number, max: number): number {
  return min + rng.int(max - min + 1);
}

/** Draws one run's faults; they never overlap, so each recovery is measured on its own. */
export function drawSchedule(seed: number, options: ScheduleOptions = {}): ScheduledFault[] {
  const rng = createRng(seed).fork('chaos-schedule');
  const kinds = options.kinds ?? FAULT_KINDS;
  const count = options.faultsPerRun ?? 3;
  const [gapMin, gapMax] = options.gapMs ?? [1_000, 2_000];
  const staleFeedMs = options.staleFeedMs ?? 3_000;
  const faults: ScheduledFault[] = [];
  let atMs = between(rng, 500, 1_500);
  const drawnKinds: FaultKind[] = [];
  for (let i = 0; i < count; i++) {
    const allowed = kinds.filter((kind) => !(ONCE_PER_RUN.has(kind) && drawnKinds.includes(kind)));
    if (allowed.length === 0) break;
    drawnKinds.push(allowed[rng.int(allowed.length)] as FaultKind);
  }
  // The exchange unreachable at SIGTERM is how the run ends: last, whenever it was drawn.
  const ordered = [...drawnKinds.filter((kind) => kind !== 'exchange-down-at-sigterm'), ...drawnKinds.filter((kind) => kind === 'exchange-down-at-sigterm')];
  for (const kind of ordered) {
    const fault = drawFault(rng, kind, atMs, staleFeedMs);
    faults.push(fault);
    atMs = fault.atMs + fault.durationMs + between(rng, gapMin, gapMax);
  }
  return faults;
}

function drawFault(rng: Rng, kind: FaultKind, atMs: number, staleFeedMs: number): ScheduledFault {
  switch (kind) {
    case 'ws-drop':
      return { kind, atMs, durationMs: 0, rate: 1 };
    case 'exchange-restart':
      return { kind, atMs, durationMs: between(rng, 300, 2_500), rate: 1 };
    case 'bot-sigkill':
      return { kind, atMs, durationMs: between(rng, 0, 1_000), rate: 1 };
    case 'stale-feed':
      // Past STALE_FEED_MS and the dead-man's check interval (a quarter of it), with room for a loaded host.
      return { kind, atMs, durationMs: staleFeedMs + between(rng, 1_500, 2_500), rate: 1 };
    case 'rate-limit-burst':
      return { kind, atMs, durationMs: between(rng, 500, 2_500), rate: 0.5 + rng.next() * 0.5 };
    case 'post-timeout-applied-late':
      return { kind, atMs, durationMs: between(rng, 500, 1_500), rate: 0.3 + rng.next() * 0.4 };
    case 'cancel-all-fails':
      // The bot must be pulling its quotes for a cancel-all to go: the feed goes quiet first.
      return { kind, atMs, durationMs: staleFeedMs + between(rng, 3_000, 4_000), rate: 1 };
    case 'rate-limit-storm':
      return { kind, atMs, durationMs: between(rng, 2_000, 4_000), rate: 1 };
    case 'slow-consumer':
      // rate: the share of the drop limit's range (256 B–16 KB) the venue tolerates before dropping us.
      return { kind, atMs, durationMs: between(rng, 1_000, 2_500), rate: 0.05 + rng.next() * 0.95 };
    case 'clock-step':
      // rate 0–0.5: the clock steps back 2 s; 0.5–1: forward 2 s. Stepped back at the end.
      return { kind, atMs, durationMs: between(rng, 1_000, 3_000), rate: 0.01 + rng.next() * 0.99 };
    case 'journal-disk-full':
    case 'exchange-down-at-sigterm':
      return { kind, atMs, durationMs: 0, rate: 1 };
    default:
      return { kind, atMs, durationMs: between(rng, 1_000, 3_000), rate: 0.2 + rng.next() * 0.5 };
  }
}
