import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock, type Timer } from '../../src/core/index.ts';
import { ReplayClock } from '../../src/backtest/replay-clock.ts';

type Op = { kind: 'timeout' | 'interval'; delay: number } | { kind: 'cancel'; which: number } | { kind: 'advance'; by: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('timeout' as const, 'interval' as const), delay: fc.integer({ min: 0, max: 50 }) }).map((op) => (op.kind === 'interval' ? { ...op, delay: op.delay + 1 } : op)),
  fc.record({ kind: fc.constant('cancel' as const), which: fc.nat(40) }),
  fc.record({ kind: fc.constant('advance' as const), by: fc.integer({ min: 0, max: 80 }) }),
);

/** Runs the ops on a clock and logs every firing as "timer@time", plus the pending counts. */
function trace(clock: ManualClock, ops: readonly Op[]): string[] {
  const log: string[] = [];
  const timers: Timer[] = [];
  for (const op of ops) {
    if (op.kind === 'advance') {
      clock.advanceTo(clock.nowMs() + op.by);
      log.push(`now ${clock.nowMs()} next ${clock.nextDueMs()} pending ${clock.pendingTimers()}`);
    } else if (op.kind === 'cancel') {
      timers[op.which % Math.max(1, timers.length)]?.cancel();
    } else {
      const id = timers.length;
      const fire = (): void => {
        log.push(`${id}@${clock.nowMs()}`);
        // A timer that re-arms another from its callback, as engine watchdogs do.
        if (id % 5 === 0) timers.push(clock.setTimeout(() => log.push(`child of ${id}@${clock.nowMs()}`), 3));
      };
      timers.push(op.kind === 'timeout' ? clock.setTimeout(fire, op.delay) : clock.setInterval(fire, op.delay));
    }
  }
  return log;
}

describe('ReplayClock', () => {
  it('fires timers exactly as ManualClock does: due order, ties in scheduling order, intervals, cancels', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
        expect(trace(new ReplayClock(1_000), ops)).toEqual(trace(new ManualClock(1_000), ops));
      }),
      { numRuns: 300 },
    );
  });
});
