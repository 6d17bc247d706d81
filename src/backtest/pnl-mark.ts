/**
 * Marking a run's PnL at a mid of our choosing (a thin venue's reference mid), from the ledger's
 * realised PnL, position and average cost: one rule for the path samples and the summary's end.
 */
import type { PnlSnapshot } from '../engine/index.ts';

/**
 * The ledger's PnL with the position marked at `mid` instead of the engine's fair price: a thin
 * venue's own mid is set by our quotes and lagging makers, so its run is valued at the reference's.
 */
export function markedAt(pnl: Pick<PnlSnapshot, 'realized' | 'position' | 'averageCost'>, mid: number): number {
  return pnl.realized + (pnl.averageCost === undefined ? 0 : pnl.position * (mid - pnl.averageCost));
}
