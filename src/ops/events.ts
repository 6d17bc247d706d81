/**
 * What operations hear of the engine and the venues (issue 25 item 3), as plain facts: a halt, a
 * pause and its end, a drift, the hedger's and the reference's state, reconnects and 429s, a
 * balance reading, the day's figures. The adapters (`monitor.ts`) turn the engine's observer calls
 * and status snapshots into these; the rules (`rules.ts`) decide which of them reach a person.
 */
import type { ReferenceState } from '../core/index.ts';
import type { EngineState, HaltReason, HedgeStatus } from '../engine/index.ts';

/** Whose event: the trading account (0x…), and the pair (`ETH/USDC`) when it is one pair's. */
export interface OpsScope {
  readonly account: string;
  readonly pair?: string;
}

/** A signed amount of a token, in tokens. */
export interface TokenAmount {
  readonly token: string;
  readonly amount: number;
}

/** One pair over the day, for the daily summary. */
export interface PairDay {
  readonly pair: string;
  readonly base: string;
  readonly quote: string;
  readonly state: EngineState;
  /** PnL since start, quote tokens (marked at the fair price). */
  readonly pnlQuote: number;
  /** PnL, fills, base volume and fees (quote tokens) since the last summary (or the start). */
  readonly pnlChangeQuote: number;
  readonly fills: number;
  readonly volumeBase: number;
  readonly feesQuote: number;
  /** Base held minus the inventory target, base tokens. */
  readonly position: number;
}

/** The facts operations hear; `atMs` on the injected clock. */
export type OpsEvent =
  /** Quoting stopped for good (the engine's halt; an account halt reaches every pair's). */
  | { readonly kind: 'halt'; readonly scope: OpsScope; readonly atMs: number; readonly code: HaltReason['code'] | undefined; readonly reason: string }
  /** Quoting paused (the first reason; others may join while it lasts). */
  | { readonly kind: 'pause-started'; readonly scope: OpsScope; readonly atMs: number; readonly reason: string }
  /** Quoting resumed: the last reason cleared after `durationMs`. */
  | { readonly kind: 'pause-ended'; readonly scope: OpsScope; readonly atMs: number; readonly reason: string; readonly durationMs: number }
  /** Balances healed from the venue differed from start + fills by this much; beyond the tolerance, the engine halts on it. */
  | { readonly kind: 'drift'; readonly scope: OpsScope; readonly atMs: number; readonly drifts: readonly TokenAmount[]; readonly isBeyondTolerance: boolean }
  /** The hedger's state changed. */
  | {
      readonly kind: 'hedge';
      readonly scope: OpsScope;
      readonly atMs: number;
      readonly market: string;
      readonly state: HedgeStatus['state'];
      readonly reason: string | undefined;
      readonly hedgesFailed: number;
      readonly uncoveredBase: number;
    }
  /** The reference feed's state changed (only `synchronised` prices). */
  | { readonly kind: 'reference'; readonly scope: OpsScope; readonly atMs: number; readonly market: string; readonly state: ReferenceState; readonly reason: string | undefined }
  /** Venue and reference started or stopped disagreeing by more than REFERENCE_MAX_DIVERGENCE_BPS (quoting pauses meanwhile). */
  | { readonly kind: 'divergence'; readonly scope: OpsScope; readonly atMs: number; readonly market: string; readonly isDivergent: boolean; readonly divergenceBps: number | undefined }
  /** A feed reconnected `count` times since the last reading (`venue`, `reference binance:ETHUSDT`, `hedge binance:ETHUSDT`). */
  | { readonly kind: 'reconnect'; readonly scope: OpsScope; readonly atMs: number; readonly feed: string; readonly count: number }
  /** The venue answered 429 (rate limited) `count` times since the last reading. */
  | { readonly kind: 'rate-limited'; readonly scope: OpsScope; readonly atMs: number; readonly venue: string; readonly count: number }
  /** A balance reading (free + locked), tokens. */
  | { readonly kind: 'balance'; readonly scope: OpsScope; readonly atMs: number; readonly token: string; readonly amount: number }
  /** The day's figures, at ALERT_DAILY_SUMMARY_UTC. */
  | { readonly kind: 'daily-summary'; readonly scope: OpsScope; readonly atMs: number; readonly sinceMs: number; readonly pairs: readonly PairDay[] };
