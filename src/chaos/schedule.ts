/**
 * Fault schedules for chaos runs, drawn from a seed: which faults, when, for how long and how
 * hard. Pure: the same seed and run index give the same schedule on every machine (the wall-clock
 * timing of a real daemon reacting to it is of course not deterministic).
 */
import { createRng, type Rng } from '../core/index.ts';

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
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** One scheduled fault: active on [atMs, atMs + durationMs) of the run's fault phase. */
export interface ScheduledFault {
  readonly kind: FaultKind;
  /** Offset from the start of the fault phase (the bot quoting both sides), ms. */
  readonly atMs: number;
  /** How long the fault is active (for restarts and kills: how long the process stays down), ms. */
  readonly durationMs: number;
  /** Probability per request/event while active (rate faults); 1 for one-shot faults. */
  readonly rate: number;
}

/** Shape of a schedule. */
export interface ScheduleOptions {
  /** Faults per run; default 3. */
  readonly faultsPerRun?: number;
  /** Quiet time between the end of one fault and the next, drawn in [min, max] ms; default 3000–6000. */
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
  const [gapMin, gapMax] = options.gapMs ?? [3_000, 6_000];
  const staleFeedMs = options.staleFeedMs ?? 3_000;
  const faults: ScheduledFault[] = [];
  let atMs = between(rng, 500, 1_500);
  for (let i = 0; i < count; i++) {
    const kind = kinds[rng.int(kinds.length)] as FaultKind;
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
      return { kind, atMs, durationMs: staleFeedMs + between(rng, 1_000, 2_000), rate: 1 };
    case 'rate-limit-burst':
      return { kind, atMs, durationMs: between(rng, 500, 2_500), rate: 0.5 + rng.next() * 0.5 };
    case 'post-timeout-applied-late':
      return { kind, atMs, durationMs: between(rng, 500, 1_500), rate: 0.3 + rng.next() * 0.4 };
    default:
      return { kind, atMs, durationMs: between(rng, 1_000, 3_000), rate: 0.2 + rng.next() * 0.5 };
  }
}
