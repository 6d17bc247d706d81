/**
 * Safety: the only component that pauses or halts quoting (ARCHITECTURE "one owner"). Pauses are
 * temporary and have reasons (the dead-man on a stale feed, the feed down; the reference issue
 * adds its own): quoting resumes when the last reason clears. A halt is for good (the drawdown
 * kill switch, a broken invariant, the operator). Each reason is named for the log and `/health`.
 * Acting on a pause or halt (cancelling everything) is the engine's, through the hooks.
 */
import type { Clock, Logger } from '../../core/index.ts';
import type { EngineObserver } from '../observer.ts';
import { DrawdownGuard } from './drawdown.ts';

/** Where the engine can be in its life, in order (`akira_mm_state{state}` has one series each). */
export const ENGINE_STATES = ['starting', 'quoting', 'paused', 'halted', 'stopping', 'stopped'] as const;

/** Where the engine is in its life. */
export type EngineState = (typeof ENGINE_STATES)[number];

/** Why quoting stopped for good. */
export interface HaltReason {
  /**
   * JOURNAL_FAILED: the crash journal could not be written (disk full): no trading without it.
   * HEDGE_FAILED: a fill could not be hedged. SIGNER_REFUSED: the signing policy refused an order.
   */
  readonly code: 'RISK_DRAWDOWN' | 'ENGINE_INVARIANT' | 'OPERATOR' | 'FATAL' | 'JOURNAL_FAILED' | 'HEDGE_FAILED' | 'SIGNER_REFUSED';
  readonly message: string;
  readonly atMs: number;
}

/** The pause reasons of the market-data feed itself (a contract with `/health`, the log and `akira_mm_pauses_total`). */
export const FEED_PAUSE_REASONS = ['stale feed', 'feed down'] as const;

/** Why quoting is paused; several may hold at once. */
export type PauseReason = (typeof FEED_PAUSE_REASONS)[number] | (string & {});

/**
 * The operator's pause (`akira-mm ctl pause`), as `/health` and the status show it: only the
 * operator's resume clears it, never an automatic reason clearing.
 */
export const OPERATOR_PAUSE = 'paused';

/** The pause that holds while the operator's cancel-all runs (`cancelAllByOperator`). */
export const OPERATOR_CANCEL_ALL = 'cancel-all';

/** What safety asks of the engine. */
export interface SafetyHooks {
  /** Quoting just paused (the first reason): cancel everything. */
  onPause(reason: PauseReason): void;
  /** The last pause reason cleared: heal, then quote again. */
  onResume(reasons: readonly PauseReason[]): void;
  /** Quoting halted for good: cancel everything (and the on-chain kill where configured). */
  onHalt(reason: HaltReason): Promise<void>;
}

/** Settings of the safety checks. */
export interface SafetyOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly observer: EngineObserver;
  /** Dead-man: no market data for this long pauses quoting. */
  readonly staleFeedMs: number;
  /** Drawdown kill switch limit, quote tokens (0 = off; may be set later once resolved). */
  readonly maxDrawdownQuote: number;
  readonly hooks: SafetyHooks;
}

/** Quoting state and the reasons behind it. */
export class Safety {
  private current: EngineState = 'starting';
  private readonly pauses = new Set<PauseReason>();
  private halt: HaltReason | undefined;
  private lastMarketDataMs = 0;
  readonly drawdown: DrawdownGuard;

  constructor(private readonly options: SafetyOptions) {
    this.drawdown = new DrawdownGuard(options.maxDrawdownQuote);
  }

  get state(): EngineState {
    return this.current;
  }

  get haltReason(): HaltReason | undefined {
    return this.halt;
  }

  /** Every pause reason in force, joined, or undefined. */
  get pauseReason(): string | undefined {
    return this.pauses.size === 0 ? undefined : [...this.pauses].join(', ');
  }

  /** True while this pause reason holds. */
  isPausedFor(reason: PauseReason): boolean {
    return this.pauses.has(reason);
  }

  isQuoting(): boolean {
    return this.current === 'quoting';
  }

  /** True once stopping began or quoting halted: nothing may be placed any more. */
  isFinished(): boolean {
    return this.current === 'halted' || this.current === 'stopping' || this.current === 'stopped';
  }

  /** Start-up is done: quote. */
  begin(): void {
    this.lastMarketDataMs = this.options.clock.nowMs();
    if (this.current === 'starting') this.current = 'quoting';
  }

  /** Market data arrived (not a top recomputed from our own orders): the feed is alive. */
  marketDataSeen(): void {
    this.lastMarketDataMs = this.options.clock.nowMs();
    if (this.pauses.has('stale feed')) this.clear('stale feed');
  }

  /** The dead-man check, run on a timer: a feed silent for `staleFeedMs` pauses quoting. */
  checkFeed(): void {
    if (this.current !== 'quoting') return;
    if (this.options.clock.nowMs() - this.lastMarketDataMs > this.options.staleFeedMs) this.pause('stale feed');
  }

  /** Feeds the latest total PnL to the kill switch; halts on a breach. */
  observePnl(totalPnl: number): void {
    const breach = this.drawdown.observe(totalPnl);
    if (breach !== undefined) void this.haltWith('RISK_DRAWDOWN', `drawdown ${breach.toFixed(6)} reached the limit ${this.drawdown.limit()}`);
  }

  /** Adds a pause reason; the first one stops quoting (and cancels everything, through the hook). */
  pause(reason: PauseReason): void {
    if (this.current !== 'quoting' && this.current !== 'paused') return;
    if (this.pauses.has(reason)) return;
    this.pauses.add(reason);
    if (this.current === 'paused') {
      this.options.logger.warn({ reason, reasons: this.pauseReason }, 'quoting stays paused; another reason');
      return;
    }
    this.current = 'paused';
    this.options.logger.warn({ reason }, 'quoting paused; cancelling everything');
    this.options.observer.paused?.(true, reason);
    this.options.hooks.onPause(reason);
  }

  /** Clears a pause reason; the last one resumes quoting. */
  clear(reason: PauseReason): void {
    if (!this.pauses.delete(reason) || this.current !== 'paused' || this.pauses.size > 0) return;
    this.current = 'quoting';
    this.options.logger.info({ reason }, 'quoting resumed');
    this.options.observer.paused?.(false, reason);
    this.options.hooks.onResume([reason]);
  }

  /** Stops quoting for good and cancels everything (through the hook). Idempotent. */
  async haltWith(code: HaltReason['code'], message: string): Promise<void> {
    if (this.isFinished()) return;
    this.halt = { code, message, atMs: this.options.clock.nowMs() };
    this.current = 'halted';
    this.pauses.clear();
    this.options.logger.error({ code, reason: message }, 'quoting halted');
    this.options.observer.halted?.(message);
    await this.options.hooks.onHalt(this.halt);
  }

  /**
   * Something that must reach the operator: added to the halt reason when halted (so `/health`
   * shows it), else it halts quoting with it.
   */
  escalate(message: string): void {
    if (this.halt !== undefined) {
      this.halt = { ...this.halt, message: `${this.halt.message}; ${message}` };
      this.options.logger.error({ reason: message }, 'escalated');
      return;
    }
    void this.haltWith('FATAL', message);
  }

  /** Shutdown began; false when it already had. */
  beginStopping(): boolean {
    if (this.current === 'stopping' || this.current === 'stopped') return false;
    this.current = 'stopping';
    return true;
  }

  stopped(): void {
    this.current = 'stopped';
  }
}
