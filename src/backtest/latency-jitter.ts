/**
 * Seeded latency jitter: each order action takes the base latency plus a uniform draw in
 * [0, jitterMs) from the run's RNG. Draws happen in the order the engine acts, which the replay
 * fixes, so the same seed gives the same latencies and the same summary.
 */
import type { Rng } from '../core/index.ts';
import type { LatencyModel, OrderAction } from './latency.ts';

/** `base` with up to `jitterMs` added to each entry and response latency (0 = `base` itself). */
export function jitteredLatency(base: LatencyModel, jitterMs: number, rng: Rng): LatencyModel {
  if (jitterMs <= 0) return base;
  return {
    entryMs: (action: OrderAction, atMs: number) => base.entryMs(action, atMs) + rng.next() * jitterMs,
    responseMs: (action: OrderAction, atMs: number) => base.responseMs(action, atMs) + rng.next() * jitterMs,
  };
}
