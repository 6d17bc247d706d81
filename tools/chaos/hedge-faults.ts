/**
 * Hedge faults for chaos runs (issue 15 item 8), beside the venue's fault kinds of `schedule.ts`:
 * what the hedge venue (`akira-mm feed --accounts`) can do to a hedging bot, drawn from a seed,
 * and how each is switched on and off on the server. Pure but for `applyHedgeFault`.
 */
import { createRng, type Rng } from '../../src/core/index.ts';
import type { TradingSide } from '../../src/markets/binance/server/index.ts';

/** Every hedge fault kind. */
export const HEDGE_FAULT_KINDS = ['hedge-reject', 'hedge-expire', 'hedge-delay', 'hedge-disconnect', 'hedge-balance-short', 'hedge-unknown-outcome'] as const;
export type HedgeFaultKind = (typeof HEDGE_FAULT_KINDS)[number];

/** One scheduled hedge fault, active on [atMs, atMs + durationMs) of the fault phase. */
export interface ScheduledHedgeFault {
  readonly kind: HedgeFaultKind;
  readonly atMs: number;
  readonly durationMs: number;
  /** For `hedge-delay`: how late every answer comes, ms. For `hedge-unknown-outcome`: whether the lost orders executed. */
  readonly delayMs: number;
  readonly applied: boolean;
}

function between(rng: Rng, min: number, max: number): number {
  return min + rng.int(max - min + 1);
}

/** Draws `count` non-overlapping hedge faults from `seed`. */
export function drawHedgeSchedule(seed: number, count = 3, kinds: readonly HedgeFaultKind[] = HEDGE_FAULT_KINDS): ScheduledHedgeFault[] {
  const rng = createRng(seed).fork('hedge-chaos-schedule');
  const faults: ScheduledHedgeFault[] = [];
  let atMs = between(rng, 1_000, 2_000);
  for (let i = 0; i < count; i++) {
    const kind = kinds[rng.int(kinds.length)] as HedgeFaultKind;
    const durationMs = between(rng, 1_000, 3_000);
    faults.push({ kind, atMs, durationMs, delayMs: between(rng, 300, 1_500), applied: rng.next() < 0.5 });
    atMs += durationMs + between(rng, 2_000, 4_000);
  }
  return faults;
}

/** What switching a fault on needs to undo it. */
export interface ActiveHedgeFault {
  end(): void;
}

/**
 * Switches `fault` on at the hedge venue for the account `apiKey`; `end()` switches it off
 * (a balance short gives the balance back).
 */
export function applyHedgeFault(fault: ScheduledHedgeFault, trading: TradingSide, apiKey: string): ActiveHedgeFault {
  const faults = trading.faults;
  switch (fault.kind) {
    case 'hedge-reject':
      faults.rejectNext(1_000_000, 'Market is closed.');
      return { end: () => faults.rejectNext(0) };
    case 'hedge-expire':
      faults.expireNext(1_000_000);
      return { end: () => faults.expireNext(0) };
    case 'hedge-delay':
      faults.delayAnswers(fault.delayMs);
      return { end: () => faults.delayAnswers(0) };
    case 'hedge-disconnect':
      faults.unreachable(true);
      faults.dropUserStreams();
      return { end: () => faults.unreachable(false) };
    case 'hedge-balance-short': {
      const rules = trading.desk.rules;
      const before = trading.desk.balances(apiKey);
      const free = (asset: string): bigint => before.find((balance) => balance.asset === asset)?.free ?? 0n;
      faults.setBalance(apiKey, rules.base, '0');
      faults.setBalance(apiKey, rules.quote, '0');
      return {
        end: () => {
          // Give back what was taken, adjusted by whatever the hedges did meanwhile (nothing could execute).
          faults.setBalance(apiKey, rules.base, formatE8(free(rules.base)));
          faults.setBalance(apiKey, rules.quote, formatE8(free(rules.quote)));
        },
      };
    }
    case 'hedge-unknown-outcome':
      faults.unknownOutcomeNext(1_000_000, fault.applied);
      return { end: () => faults.unknownOutcomeNext(0, false) };
  }
}

function formatE8(units: bigint): string {
  return `${units / 100_000_000n}.${(units % 100_000_000n).toString().padStart(8, '0')}`;
}
