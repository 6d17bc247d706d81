/**
 * The outbound request budget: a token bucket over venue actions (placements, cancels), so the
 * bot stays under the venue's per-trader rate limit instead of learning it from a 429. Under
 * pressure the order manager spends tokens by priority (risk-reducing cancels first, then the
 * quotes nearest the touch) and placements stop short of a reserve kept for cancels.
 */
import type { Clock } from '../../core/index.ts';
import type { OutboundBudget } from '../settings.ts';

/** What an action is, for the bucket's reserve: a risk-reducing cancel, or anything else (placements, refreshes). */
export type ActionKind = 'cancel' | 'place';

/** A token bucket on the injected clock. */
export class TokenBucket {
  private tokens: number;
  private refilledAtMs: number;

  constructor(
    private readonly budget: OutboundBudget,
    private readonly clock: Clock,
  ) {
    this.tokens = budget.burst;
    this.refilledAtMs = clock.nowMs();
  }

  /** True when the budget is switched off (rate 0). */
  get isUnlimited(): boolean {
    return !(this.budget.ratePerS > 0);
  }

  /**
   * Takes `count` tokens for one action (all or none) if the bucket allows it: a risk-reducing
   * cancel may take any token, anything else only those above the reserve.
   */
  tryTake(kind: ActionKind, count = 1): boolean {
    if (this.isUnlimited) return true;
    this.refill();
    const floor = kind === 'cancel' ? 0 : Math.min(this.budget.reservedForCancels, this.budget.burst - count);
    if (this.tokens - count < floor) return false;
    this.tokens -= count;
    return true;
  }

  /**
   * Takes a token for an action that must go whatever the budget (a cancel-all on halt or
   * shutdown): the bucket may go into debt, which later actions pay back.
   */
  takeAnyway(): void {
    if (this.isUnlimited) return;
    this.refill();
    this.tokens -= 1;
  }

  /** Milliseconds until an action of this kind could take a token (0 = now). */
  msUntilAvailable(kind: ActionKind): number {
    if (this.isUnlimited) return 0;
    this.refill();
    const floor = kind === 'cancel' ? 0 : Math.min(this.budget.reservedForCancels, this.budget.burst - 1);
    const missing = floor + 1 - this.tokens;
    return missing <= 0 ? 0 : Math.ceil((missing / this.budget.ratePerS) * 1000);
  }

  /** Tokens now (for tests and metrics). */
  available(): number {
    this.refill();
    return this.tokens;
  }

  private refill(): void {
    const now = this.clock.nowMs();
    const elapsedMs = now - this.refilledAtMs;
    if (elapsedMs <= 0) return;
    this.tokens = Math.min(this.budget.burst, this.tokens + (elapsedMs / 1000) * this.budget.ratePerS);
    this.refilledAtMs = now;
  }
}
