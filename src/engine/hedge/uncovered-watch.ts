/**
 * Watches the uncovered position for the hedger: the part of it that is dust (below the hedge
 * venue's minimum, kept until more joins it), whether what is left is hedgeable, and since when:
 * a hedgeable position older than the maximum delay is late, and the side adding to it stops.
 */
import type { HedgeRules, ReferenceTop } from '../../core/index.ts';
import type { HedgeExposure } from './exposure.ts';
import type { HedgeStats } from './hedge-stats.ts';
import { minHedgeableUnits } from './view.ts';

/** The uncovered position's dust and age. */
export class UncoveredWatch {
  /** The last amount the sizing found too small to send (signed, pair base units). */
  dust = 0n;
  private hedgeableSinceMs: number | undefined;
  private isLate = false;

  constructor(
    private readonly exposure: HedgeExposure,
    private readonly rules: HedgeRules,
    private readonly stats: HedgeStats,
  ) {}

  /** True while a hedgeable position is older than the maximum delay. */
  get late(): boolean {
    return this.isLate;
  }

  /** The uncovered position less its dust (same sign, at most all of it). */
  openUnits(): bigint {
    const uncovered = this.exposure.uncoveredUnits();
    const dust = this.dust;
    if (dust === 0n || uncovered === 0n || dust > 0n !== uncovered > 0n) return uncovered;
    const magnitude = (value: bigint): bigint => (value < 0n ? -value : value);
    return magnitude(dust) < magnitude(uncovered) ? uncovered - dust : 0n;
  }

  /** Records whether something hedgeable is uncovered now (for the lateness and the time share). */
  observe(nowMs: number, top: ReferenceTop | undefined): void {
    const minimum = minHedgeableUnits(this.rules, this.exposure.scale, top);
    this.stats.dustUnits = minimum - 1n;
    const open = this.openUnits();
    const hedgeable = (open < 0n ? -open : open) >= minimum;
    this.stats.observe(nowMs, hedgeable);
    if (!hedgeable) this.hedgeableSinceMs = undefined;
    else this.hedgeableSinceMs ??= nowMs;
  }

  /** Re-evaluates the lateness; true when it changed. */
  checkLate(nowMs: number, top: ReferenceTop | undefined, maxDelayMs: number): boolean {
    this.observe(nowMs, top);
    const since = this.hedgeableSinceMs;
    const late = since !== undefined && nowMs - since > maxDelayMs;
    if (late === this.isLate) return false;
    this.isLate = late;
    return true;
  }
}
