/**
 * The `/health` answer of a daemon of N ≥ 1 pairs on one account: 200 while every pair quotes and
 * the account stands, 503 otherwise, with the worst pair's state and why at the top (`state`,
 * `reason`), the account's, and each pair's. A pair alone also shows its hedger and its reference
 * at the top (`hedge`, `reference`), as a one-pair daemon always has.
 */
import type { AccountSnapshot } from './account.ts';
import type { EngineStatus, ReferenceView } from './status.ts';

/** One pair as `/health` reads it. */
export interface PairHealth {
  /** `BASE/QUOTE`. */
  readonly name: string;
  readonly status: EngineStatus;
}

/** `/health`'s status code and body. */
export interface Health {
  readonly healthy: boolean;
  readonly body: Readonly<Record<string, unknown>>;
}

/** The body while the pairs are still connecting (no engine exists yet). */
export const STARTING_HEALTH: Health = { healthy: false, body: { state: 'starting', reason: null } };

/** `/health` from every pair's status and the account's. */
export function accountHealth(pairs: readonly PairHealth[], account: Pick<AccountSnapshot, 'haltReason'>): Health {
  const halted = account.haltReason;
  const healthy = halted === undefined && pairs.every(({ status }) => status.state === 'quoting');
  const worst = pairs.find(({ status }) => status.state === 'halted') ?? pairs.find(({ status }) => status.state !== 'quoting');
  const [alone] = pairs.length === 1 ? pairs : [];
  return {
    healthy,
    body: {
      state: healthy ? 'quoting' : (worst?.status.state ?? 'halted'),
      reason: halted ?? (worst === undefined ? null : reasonOf(worst.status)),
      ...(alone === undefined ? {} : pairParts(alone.status)),
      account: { state: halted === undefined ? 'ok' : 'halted', reason: halted ?? null },
      pairs: Object.fromEntries(pairs.map(({ name, status }) => [name, { state: status.state, reason: reasonOf(status), ...pairParts(status) }])),
    },
  };
}

/** `/readyz`'s answer: `ready`, or `not ready: <state> (<reason>)`, one line. */
export function readinessText(health: Health): string {
  if (health.healthy) return 'ready\n';
  const { state, reason } = health.body;
  return `not ready: ${String(state)}${typeof reason === 'string' ? ` (${reason})` : ''}\n`;
}

function reasonOf(status: EngineStatus): string | null {
  return status.haltReason?.message ?? status.pauseReason ?? null;
}

/** A pair's hedger and reference market, when it has them. */
function pairParts(status: EngineStatus): Record<string, unknown> {
  return {
    ...(status.hedge === undefined ? {} : { hedge: { state: status.hedge.state, reason: status.hedge.reason ?? null, uncoveredBase: status.hedge.uncoveredBase, dustBase: status.hedge.dustBase } }),
    ...(status.reference === undefined ? {} : { reference: referenceHealth(status.reference) }),
  };
}

/** The reference market's part of /health: its state and why, how old, and how far the venue is from it. */
function referenceHealth(reference: ReferenceView): Record<string, unknown> {
  return {
    market: reference.market,
    state: reference.state,
    reason: reference.reason ?? null,
    ageMs: reference.ageMs ?? null,
    mid: reference.mid ?? null,
    fair: reference.fair ?? null,
    basisBps: reference.basisBps ?? null,
    divergenceBps: reference.divergenceBps ?? null,
  };
}
