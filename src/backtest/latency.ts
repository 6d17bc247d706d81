/**
 * Order latency models (MM-NOTES §2, after hftbacktest's `latency.rs`): how long an order takes
 * to reach the exchange and how long its answer takes to come back. Per action (place, cancel),
 * constant or interpolated from a recorded series of (time, entry, response) rows, so a backtest
 * can replay the latencies the live daemon measured.
 */

/** Kinds of order actions with their own latency. */
export type OrderAction = 'place' | 'cancel';

/** Latency of one action sent at `atMs`. */
export interface LatencyModel {
  /** Local send → exchange receipt, ms. */
  entryMs(action: OrderAction, atMs: number): number;
  /** Exchange processing → local receipt of the answer, ms. */
  responseMs(action: OrderAction, atMs: number): number;
}

/** The same latency for every order: `entryMs` there, `responseMs` back. */
export function constantLatency(entryMs: number, responseMs = entryMs): LatencyModel {
  return { entryMs: () => entryMs, responseMs: () => responseMs };
}

/** One recorded latency sample. */
export interface LatencySample {
  readonly timeMs: number;
  readonly action: OrderAction;
  readonly entryMs: number;
  readonly responseMs: number;
}

/**
 * Linear interpolation between recorded samples of the same action (nearest sample outside the
 * recorded span). Falls back to `fallback` for an action with no samples.
 */
export function interpolatedLatency(samples: readonly LatencySample[], fallback: LatencyModel): LatencyModel {
  const byAction = new Map<OrderAction, LatencySample[]>();
  for (const sample of [...samples].sort((a, b) => a.timeMs - b.timeMs)) {
    const list = byAction.get(sample.action) ?? [];
    list.push(sample);
    byAction.set(sample.action, list);
  }
  const at = (action: OrderAction, timeMs: number, pick: (s: LatencySample) => number): number | undefined => {
    const list = byAction.get(action);
    if (list === undefined || list.length === 0) return undefined;
    let low = 0;
    let high = list.length - 1;
    const first = list[0] as LatencySample;
    const last = list[high] as LatencySample;
    if (timeMs <= first.timeMs) return pick(first);
    if (timeMs >= last.timeMs) return pick(last);
    while (high - low > 1) {
      const mid = (low + high) >>> 1;
      if ((list[mid] as LatencySample).timeMs <= timeMs) low = mid;
      else high = mid;
    }
    const a = list[low] as LatencySample;
    const b = list[high] as LatencySample;
    const weight = b.timeMs === a.timeMs ? 0 : (timeMs - a.timeMs) / (b.timeMs - a.timeMs);
    return pick(a) + weight * (pick(b) - pick(a));
  };
  return {
    entryMs: (action, timeMs) => at(action, timeMs, (s) => s.entryMs) ?? fallback.entryMs(action, timeMs),
    responseMs: (action, timeMs) => at(action, timeMs, (s) => s.responseMs) ?? fallback.responseMs(action, timeMs),
  };
}
