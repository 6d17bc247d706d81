/**
 * Queue-position models for our resting orders in a replayed L2 book (MM-NOTES §2, §3.4, after
 * hftbacktest's `queue.rs`). An L2 recording shows level sizes, not who left the queue, so where
 * we stand is a model: `front` is the quantity (lots) ahead of us at our price. A trade at our
 * price eats the front first; we fill once the front is exhausted.
 */

/** How the quantity ahead of an order moves as the level changes. */
export interface QueueModel {
  readonly name: string;
  /**
   * New front after the level size went from `previousLots` to `currentLots`, given that
   * `tradedLots` of that drop were trades already applied to the front.
   */
  onLevelChange(front: number, previousLots: number, currentLots: number, tradedLots: number): number;
}

/**
 * Conservative ("risk-averse"): cancellations are assumed to come from behind us, so only trades
 * move us forward; the front can never exceed what is displayed at the level.
 */
export const riskAverseQueue: QueueModel = {
  name: 'risk-averse',
  onLevelChange(front, _previousLots, currentLots) {
    return Math.min(front, currentLots);
  },
};

/** f(x) used to split a drop between ahead and behind: p = f(back) / (f(back) + f(front)). */
type ProbabilityFunction = (front: number, back: number) => number;

function probabilisticQueue(name: string, probability: ProbabilityFunction): QueueModel {
  return {
    name,
    onLevelChange(front, previousLots, currentLots, tradedLots) {
      const change = previousLots - currentLots - tradedLots;
      if (change < 0) return Math.min(front, currentLots);
      const back = Math.max(0, previousLots - front);
      const p = probability(Math.max(0, front), back);
      const next = front - (1 - p) * change + Math.min(back - p * change, 0);
      return Math.min(next, currentLots);
    },
  };
}

/** Probabilistic with f(x) = x^n: larger n assumes cancels come mostly from the back. */
export function powerQueue(n: number): QueueModel {
  return probabilisticQueue(`power:${n}`, (front, back) => {
    const fb = back ** n;
    const ff = front ** n;
    return fb + ff === 0 ? 0.5 : fb / (fb + ff);
  });
}

/** Probabilistic with f(x) = ln(1 + x). */
export const logQueue: QueueModel = probabilisticQueue('log', (front, back) => {
  const fb = Math.log1p(back);
  const ff = Math.log1p(front);
  return fb + ff === 0 ? 0.5 : fb / (fb + ff);
});

/**
 * Parses `risk-averse`, `power:N` or `log`.
 * @returns the model, or undefined for anything else.
 */
export function parseQueueModel(text: string): QueueModel | undefined {
  if (text === 'risk-averse') return riskAverseQueue;
  if (text === 'log') return logQueue;
  const match = /^power:(\d+(?:\.\d+)?)$/.exec(text);
  if (match !== null) {
    const n = Number(match[1]);
    if (n > 0 && n <= 10) return powerQueue(n);
  }
  return undefined;
}
