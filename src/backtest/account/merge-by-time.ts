/**
 * Several recordings replayed on one clock (`backtest --data A --env A.env --data B --env B.env`):
 * each source pushes its events as it always does, and a gate at every time step lets exactly one
 * source run at a time, the one whose next time is earliest (ties: the source given first). So the
 * merged stream is in time order, the same on every run whatever the disk does: a source may move
 * on only once every other source has said when its next event is (or has ended).
 */
import type { RecordedEventHandler, RecordedEventSource } from '../data/index.ts';

/** A source and the handler of its events. */
export interface TimedSource {
  readonly source: RecordedEventSource;
  /** Its `advance` moves the shared clock (called only in merged time order). */
  readonly handler: RecordedEventHandler;
}

/** Replays every source, merged in time order; returns each source's event count. */
export async function replayMergedByTime(sources: readonly TimedSource[]): Promise<number[]> {
  const count = sources.length;
  /** The time each source waits to move to; undefined until it says (at its first event). */
  const next: (number | undefined)[] = sources.map(() => undefined);
  const ended: boolean[] = sources.map(() => false);
  const parked: ({ resolve: () => void; reject: (error: unknown) => void } | undefined)[] = sources.map(() => undefined);
  let failure: unknown;

  /** The source whose turn it is: every other has a later next time (or ended); undefined while one has not said. */
  const turn = (): number | undefined => {
    let best: number | undefined;
    for (let i = 0; i < count; i++) {
      if (ended[i] === true) continue;
      const time = next[i];
      if (time === undefined) return undefined;
      if (best === undefined || time < (next[best] as number)) best = i;
    }
    return best;
  };

  const wakeTurn = (): void => {
    const i = turn();
    const waiting = i === undefined ? undefined : parked[i];
    if (i === undefined || waiting === undefined) return;
    parked[i] = undefined;
    waiting.resolve();
  };

  const gate = (i: number, timeMs: number, move: () => Promise<void> | undefined): Promise<void> | undefined => {
    if (failure !== undefined) return Promise.reject(failure);
    next[i] = timeMs;
    if (turn() === i) return move();
    const wait = new Promise<void>((resolve, reject) => {
      parked[i] = { resolve, reject };
    });
    wakeTurn();
    return wait.then(move);
  };

  const runs = sources.map(async ({ source, handler }, i) => {
    const gated: RecordedEventHandler = {
      advance: (timeMs) => gate(i, timeMs, () => handler.advance(timeMs)),
      depth: (side, priceTicks, qtyLots) => handler.depth(side, priceTicks, qtyLots),
      clear: () => handler.clear(),
      trade: (aggressor, priceTicks, qtyLots) => handler.trade(aggressor, priceTicks, qtyLots),
      gasPrice: (gasPriceUnits) => handler.gasPrice(gasPriceUnits),
    };
    try {
      return await source.replay(gated);
    } catch (error) {
      // One source failed: the others, parked at the gate, unwind with the same error.
      failure ??= error;
      for (const waiting of parked) waiting?.reject(failure);
      parked.fill(undefined);
      throw error;
    } finally {
      ended[i] = true;
      wakeTurn();
    }
  });
  return Promise.all(runs);
}
