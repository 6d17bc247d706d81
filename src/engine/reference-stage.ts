/**
 * The reference stage, beside the fair-price stage (`market.ts`): a deep market we only read
 * (REFERENCE=…) priced by the `ReferencePricer` and fed into the market view. With
 * FAIR_PRICE=reference|blend the fair price comes from it (`externalFair`), and its state gates
 * quoting: a reference that is not synchronised pauses with its state as the reason, a jump pulls
 * the quotes for a moment (cancel first, requote after), a venue too far from it pauses until
 * they agree again. It owns the feed's listener and its pause reasons; what a new price means
 * for quoting (mark, limits, drawdown, requote) stays the engine's, told through `onMoved`.
 */
import { referenceMid, type Clock, type Logger, type ReferenceFeed, type ReferenceListener, type ReferenceState, type ReferenceStatus, type ReferenceTop, type Side } from '../core/index.ts';
import { MarkoutTracker } from './markouts.ts';
import type { MarketTracker } from './market.ts';
import { ReferencePricer, type ReferenceSettings } from './reference-pricer.ts';
import type { Safety } from './safety/safety.ts';
import type { FairPriceSource } from './settings.ts';
import type { ReferenceView } from './status.ts';

/** Pause reason while venue and reference disagree by more than REFERENCE_MAX_DIVERGENCE_BPS. */
const REFERENCE_DIVERGENT = 'reference divergent';
/** Pause reason for the moment quotes stay pulled after a reference jump. */
const REFERENCE_JUMP = 'reference jump';
/** Every pause reason the stage gives: a contract with `/health`, the log and `akira_mm_pauses_total{reason}`. */
export const REFERENCE_PAUSE_REASONS = [REFERENCE_JUMP, REFERENCE_DIVERGENT, ...(['resyncing', 'stale', 'stopped'] as const satisfies readonly Exclude<ReferenceState, 'synchronised'>[]).map((state) => `reference ${state}`)] as const;
/** How long quotes stay pulled after a reference jump (cancel first, requote after). */
const REFERENCE_JUMP_PAUSE_MS = 250;

/** Settings and collaborators of the stage. */
export interface ReferenceStageOptions {
  readonly feed: ReferenceFeed;
  readonly settings: ReferenceSettings;
  readonly fairPrice: FairPriceSource;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Safety, which the stage asks for its own pause reasons (and nothing else). */
  readonly safety: Pick<Safety, 'pause' | 'clear' | 'pauseReason' | 'isFinished'>;
  /** Pause for `forMs`, then clear unless another reason holds. */
  pauseFor(reason: string, forMs: number): void;
}

/** The reference market's part of the pipeline. */
export class ReferenceStage {
  private readonly pricer: ReferencePricer;
  /** True when the fair price comes (in part) from the reference (FAIR_PRICE=reference|blend). */
  readonly drivesFair: boolean;
  /** The pause reason the reference's own state holds now (one at a time). */
  private statePause: string | undefined;
  /**
   * Our fills marked out against the reference mid: on a thin venue the venue's mid is our own
   * quotes (and a lagging background maker), so only the reference shows a quote picked off.
   */
  private readonly markouts = new MarkoutTracker();

  constructor(private readonly options: ReferenceStageOptions) {
    this.pricer = new ReferencePricer(options.settings, options.feed);
    this.drivesFair = options.fairPrice === 'reference' || options.fairPrice === 'blend';
  }

  /** The fair price the market tracker asks for (venue mid and size at its touch in), when the reference drives it. */
  externalFair(): ((venueMid: number | undefined, venueSize: number) => number | undefined) | undefined {
    if (!this.drivesFair) return undefined;
    const pricer = this.pricer;
    return this.options.fairPrice === 'reference' ? () => pricer.referenceFair() : (venueMid, venueSize) => pricer.blend(venueMid, venueSize);
  }

  /** The venue's book changed: its mid feeds the `auto` basis, and the divergence is judged again. */
  onVenueMid(venueMid: number | undefined): void {
    if (venueMid !== undefined) this.pricer.observeVenueMid(venueMid, this.options.clock.nowMs());
    this.checkDivergence(venueMid);
  }

  /**
   * The feed's listener: prices go to `market`; `onMoved` is told when a reference price moved
   * the fair price (after the stage's own pauses).
   */
  listener(market: MarketTracker, onMoved: () => void): ReferenceListener {
    return {
      onTop: (top) => this.onTop(top, market, onMoved),
      onTrade: (trade) => market.onReferenceTrade(this.options.clock.nowMs(), trade.price * (1 + (this.pricer.basisFraction() ?? 0)), trade.aggressor),
      onStatus: (status) => this.onStatus(status),
    };
  }

  /** One of our fills, at `price` (quote per base): its reference markouts resolve as the reference moves. */
  onFill(side: Side, price: number, timeMs: number): void {
    this.markouts.addFill(side, price, timeMs);
  }

  /** Closes the feed (the engine's stop). */
  stop(): Promise<void> {
    return this.options.feed.stop();
  }

  /** The reference as the status shows it, against the venue mid now. */
  view(venueMid: number | undefined): ReferenceView {
    const status = this.options.feed.status();
    const basis = this.pricer.basisFraction();
    return {
      market: status.market,
      state: status.state,
      reason: status.reason,
      mid: status.mid,
      fair: this.pricer.referenceFair(),
      basisBps: basis === undefined ? undefined : basis * 10_000,
      divergenceBps: this.pricer.divergenceBps(venueMid),
      ageMs: status.lastUpdateMs === undefined ? undefined : this.options.clock.nowMs() - status.lastUpdateMs,
      markouts: this.markouts.summary(),
    };
  }

  private onTop(top: ReferenceTop, market: MarketTracker, onMoved: () => void): void {
    const nowMs = this.options.clock.nowMs();
    const jumpBps = this.pricer.onTop(top, nowMs);
    this.markouts.observeMid(referenceMid(top) * (1 + (this.pricer.basisFraction() ?? 0)), nowMs);
    market.onReferencePrice(nowMs, this.pricer.referenceFair());
    if (!this.drivesFair) return;
    // A reference jump: pull our quotes first (they may be far off the new price), requote after.
    if (jumpBps !== undefined) {
      this.options.logger.warn({ jumpBps: Number(jumpBps.toFixed(2)), windowMs: this.options.settings.jumpWindowMs }, 'reference jumped: cancelling first, requoting after');
      this.options.pauseFor(REFERENCE_JUMP, REFERENCE_JUMP_PAUSE_MS);
    }
    this.checkDivergence(market.mid());
    onMoved();
  }

  /** Quoting from a reference that is not synchronised (resyncing, stale, stopped) pauses, with its state as the reason. */
  private onStatus(status: ReferenceStatus): void {
    const { safety } = this.options;
    // Stopping closes the feed too: its `stopped` is no reason to warn about then.
    if (!this.drivesFair || (status.state === 'stopped' && safety.isFinished())) return;
    const reason = status.state === 'synchronised' ? undefined : `reference ${status.state}`;
    if (reason === this.statePause) return;
    if (this.statePause !== undefined) safety.clear(this.statePause);
    this.statePause = reason;
    if (reason !== undefined) {
      this.options.logger.warn({ market: status.market, state: status.state, reason: status.reason }, 'reference unusable: quoting from it pauses');
      safety.pause(reason);
    }
  }

  /** Venue mid too far from the reference fair: pause until they agree again. */
  private checkDivergence(venueMid: number | undefined): void {
    const limit = this.options.settings.maxDivergenceBps;
    if (!this.drivesFair || limit <= 0) return;
    const divergence = this.pricer.divergenceBps(venueMid);
    if (divergence !== undefined && divergence > limit) {
      if (this.options.safety.pauseReason?.includes(REFERENCE_DIVERGENT) !== true) this.options.logger.warn({ divergenceBps: Number(divergence.toFixed(2)), limitBps: limit }, 'venue and reference diverge');
      this.options.safety.pause(REFERENCE_DIVERGENT);
    } else {
      this.options.safety.clear(REFERENCE_DIVERGENT);
    }
  }
}
