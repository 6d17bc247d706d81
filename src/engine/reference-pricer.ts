/**
 * The fair price from a deep reference market (issue 10): LayerAkira's books are thin, often the
 * bot is most of the liquidity, and "quote around the mid" means quoting around our own orders.
 * So the fair price can come from a deep market we only read (`ReferenceFeed`), adjusted by the
 * basis between the two (USDT vs USDC, a venue premium):
 *
 *   reference fair = reference price (mid or microprice) × (1 + basis)
 *   basis = REFERENCE_BASIS_BPS, or `auto`: an EMA of venue mid / reference mid − 1, updated only
 *           while the venue shows both sides, each step bounded (one odd print cannot drag it)
 *   blend = venue mid and reference fair weighted by the size each shows within a band of its mid
 *
 * It also watches what makes a reference unsafe to quote from: a jump larger than
 * REFERENCE_JUMP_BPS within REFERENCE_JUMP_WINDOW_MS (cancel first, requote after), and the
 * divergence between venue mid and reference fair (pause past REFERENCE_MAX_DIVERGENCE_BPS).
 * Pure arithmetic over what it is fed: the engine owns the feed and the pauses.
 */
import { depthWithinBps, referenceMicroprice, referenceMid, type REFERENCE_KEYS, type ReferenceFeed, type ReferenceTop, type SettingsOf } from '../core/index.ts';

/**
 * How the engine prices from a reference: one field per REFERENCE_* key read by `reference`
 * (a fixed basis in bps or `auto`; 0 divergence = never pause; 0 jump = no jump rule).
 */
export type ReferenceSettings = SettingsOf<typeof REFERENCE_KEYS, 'reference'>;

/** Band around each mid within which `blend` weighs the size shown, bps. */
const BLEND_BAND_BPS = 10;
/** Reference depth levels read for the blend. */
const BLEND_LEVELS = 20;

/** Prices from a reference feed. */
export class ReferencePricer {
  private basis: number | undefined;
  private basisAtMs: number | undefined;
  /** Reference prices within the jump window, oldest first. */
  private recent: { readonly atMs: number; readonly price: number }[] = [];

  constructor(
    private readonly settings: ReferenceSettings,
    private readonly feed: Pick<ReferenceFeed, 'top' | 'depth' | 'status'>,
  ) {
    if (settings.basisBps !== 'auto') this.basis = settings.basisBps / 10_000;
  }

  /** The basis now, as a fraction (undefined while `auto` has seen no venue mid). */
  basisFraction(): number | undefined {
    return this.basis;
  }

  /** A new usable top. Returns the move over the jump window when it passed REFERENCE_JUMP_BPS, else undefined. */
  onTop(top: ReferenceTop, nowMs: number): number | undefined {
    const price = this.price(top);
    if (this.settings.jumpBps <= 0) return undefined;
    const since = nowMs - this.settings.jumpWindowMs;
    let drop = 0;
    while (drop < this.recent.length && (this.recent[drop] as { atMs: number }).atMs < since) drop++;
    if (drop > 0) this.recent.splice(0, drop);
    this.recent.push({ atMs: nowMs, price });
    let low = price;
    let high = price;
    for (const point of this.recent) {
      if (point.price < low) low = point.price;
      if (point.price > high) high = point.price;
    }
    const moveBps = ((high - low) / low) * 10_000;
    if (moveBps <= this.settings.jumpBps) return undefined;
    // Reported once per jump: the window starts over from here.
    this.recent = [{ atMs: nowMs, price }];
    return moveBps;
  }

  /** The venue's mid (both sides shown) at `nowMs`: feeds the `auto` basis. */
  observeVenueMid(venueMid: number, nowMs: number): void {
    if (this.settings.basisBps !== 'auto') return;
    const top = this.usableTop();
    if (top === undefined || !(venueMid > 0)) return;
    const observed = venueMid / referenceMid(top) - 1;
    if (!Number.isFinite(observed)) return;
    if (this.basis === undefined || this.basisAtMs === undefined) {
      this.basis = observed;
      this.basisAtMs = nowMs;
      return;
    }
    const elapsedS = Math.max(0, nowMs - this.basisAtMs) / 1000;
    const weight = 1 - 0.5 ** (elapsedS / this.settings.basisHalfLifeS);
    const maxStep = this.settings.basisMaxStepBps / 10_000;
    const step = Math.max(-maxStep, Math.min(maxStep, (observed - this.basis) * weight));
    this.basis += step;
    this.basisAtMs = nowMs;
  }

  /** Reference price × (1 + basis); undefined unless the feed is synchronised (and the basis known). */
  referenceFair(): number | undefined {
    const top = this.usableTop();
    if (top === undefined) return undefined;
    return this.price(top) * (1 + (this.basis ?? 0));
  }

  /**
   * Venue mid and reference fair weighted by the base size each shows within a band of its mid
   * (a deep reference outweighs a thin venue); the venue mid alone without a reference, the
   * reference alone without a venue mid.
   */
  blend(venueMid: number | undefined, venueSizeNearMid: number): number | undefined {
    const reference = this.referenceFair();
    if (reference === undefined) return venueMid;
    if (venueMid === undefined || !(venueSizeNearMid > 0)) return reference;
    const depth = this.feed.depth(BLEND_LEVELS);
    const shown = depth === undefined ? { bidQty: 0, askQty: 0 } : depthWithinBps(depth, BLEND_BAND_BPS);
    const referenceWeight = shown.bidQty + shown.askQty;
    const total = referenceWeight + venueSizeNearMid;
    return total > 0 ? (reference * referenceWeight + venueMid * venueSizeNearMid) / total : reference;
  }

  /** |venue mid / reference fair − 1| in bps, or undefined when either is missing. */
  divergenceBps(venueMid: number | undefined): number | undefined {
    const fair = this.referenceFair();
    if (fair === undefined || venueMid === undefined || !(fair > 0)) return undefined;
    return Math.abs(venueMid / fair - 1) * 10_000;
  }

  /** The feed's own answer decides: a top it no longer reports (resyncing, stale, crossed) is not usable. */
  private usableTop(): ReferenceTop | undefined {
    return this.feed.top();
  }

  private price(top: ReferenceTop): number {
    return this.settings.price === 'microprice' ? referenceMicroprice(top) : referenceMid(top);
  }
}
