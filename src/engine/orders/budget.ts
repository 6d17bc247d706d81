/**
 * The outbound request budget: a token bucket over venue actions (placements, cancels), so the
 * bot stays under the venue's per-trader rate limit instead of learning it from a 429. The venue
 * limits per trader, so one bucket serves every pair of an account. Priority is by tiers, which
 * hold across pairs without a coordinator: a risk-reducing cancel may take any token; level-0
 * work (the quotes at the front) stops short of a reserve kept for those cancels; deeper levels
 * and clean-up stop short of a further share of the bucket, so they never starve any pair's
 * front quotes.
 */
import type { Clock } from '../../core/index.ts';
import type { OutboundBudget } from '../settings.ts';

/**
 * What an action is, for the bucket's floors: `risk` = a cancel that reduces risk, `front` = a
 * level-0 placement or refresh, `back` = deeper levels and cancels of orders nobody wants.
 */
export type ActionKind = 'risk' | 'front' | 'back';

/** Share of the bucket that only risk and front work may use. */
const BACK_RESERVE_FRACTION = 0.25;

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

  /** Takes `count` tokens for one action (all or none) if the bucket allows it above this kind's floor. */
  tryTake(kind: ActionKind, count = 1): boolean {
    if (this.isUnlimited) return true;
    this.refill();
    if (this.tokens - count < this.floor(kind, count)) return false;
    this.tokens -= count;
    return true;
  }

  /** Tokens this kind of action must leave in the bucket (never so many that a full bucket could not pay for it). */
  private floor(kind: ActionKind, count: number): number {
    if (kind === 'risk') return 0;
    const front = this.budget.reservedForCancels;
    const floor = kind === 'front' ? front : front + Math.ceil(this.budget.burst * BACK_RESERVE_FRACTION);
    return Math.max(0, Math.min(floor, this.budget.burst - count));
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
    const missing = this.floor(kind, 1) + 1 - this.tokens;
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
