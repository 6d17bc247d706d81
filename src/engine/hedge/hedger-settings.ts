/**
 * How the hedger hedges, read by the hedger and by the pieces it is built of (the hedge market's
 * view prices with the fee, profit and basis settings), so it sits below all of them.
 */
import type { HEDGE_KEYS, SettingsOf } from '../../core/index.ts';

/** How the hedger hedges: one field per HEDGE_* key read by `hedger` (recvWindowMs: a request older than this can no longer execute). */
export type HedgerSettings = SettingsOf<typeof HEDGE_KEYS, 'hedger'>;
