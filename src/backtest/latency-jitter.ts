/**
 * Seeded latency jitter: each order action takes the base latency plus a uniform whole number of
 * ms in [0, jitterMs] from the run's RNG (whole ms: the engine stamps orders in integer ms). Draws happen in the order the engine acts, which the replay
 * fixes, so the same seed gives the same latencies and the same summary.
 */
import type { Rng } from '../core/index.ts';
import type { LatencyModel, OrderAction } from './latency.ts';

/** `base` with up to `jitterMs` added to each entry and response latency (0 = `base` itself). */
export function jitteredLatency(base: LatencyModel, jitterMs: number, rng: Rng): LatencyModel {
  if (jitterMs <= 0) return base;
  return {
    entryMs: (action: OrderAction, atMs: number) => base.entryMs(action, atMs) + rng.int(jitterMs + 1),
    responseMs: (action: OrderAction, atMs: number) => base.responseMs(action, atMs) + rng.int(jitterMs + 1),
  };
}
