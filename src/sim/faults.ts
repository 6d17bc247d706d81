/**
 * Fault injection, so a client's recovery paths can be tested against the embedded exchange
 * (issue #3): dropped sockets, `snap` gaps and repeats, duplicated or reordered execution reports,
 * delayed or failed HTTP requests (5xx, or 429 with a suggested sleep), optionally after the
 * request was applied (the "unknown outcome" a client must resolve by querying, SPEC §2).
 * All chance comes from a seeded generator, so a failing test repeats exactly.
 */
import type { Rng } from '../core/index.ts';

/** Rates are probabilities in [0, 1] per event; all default to 0 (no faults). */
export interface FaultSettings {
  /** Per outgoing WS event: close that socket instead of sending (code 1012, "service restart"). */
  readonly wsDropRate: number;
  /** Per market-data event (bbo, trade, snap) of the `streamPairs`: send it to nobody; at 1 the feed is silent while the socket stays up. */
  readonly marketMuteRate: number;
  /** Per `snap` delta: consume its msg id without sending it (a gap). */
  readonly snapSkipRate: number;
  /** Per `snap` delta: send it twice. */
  readonly snapDuplicateRate: number;
  /** Per private report: send it twice. */
  readonly reportDuplicateRate: number;
  /** Per private report: hold it back and send it after the account's next report. */
  readonly reportReorderRate: number;
  /** Per HTTP request: wait `httpDelayMs` (on the venue clock) before handling it. */
  readonly httpDelayRate: number;
  readonly httpDelayMs: number;
  /** Per HTTP request: answer 500. */
  readonly httpErrorRate: number;
  /** Per HTTP request: answer 429 "Rate limit exceeded. Suggested sleep time: <n>ms". */
  readonly httpRateLimitRate: number;
  /** Per HTTP request: reset the connection without answering (what a client sees as a timeout or reset). */
  readonly httpResetRate: number;
  readonly rateLimitSleepMs: number;
  /** Fail (500/429) only after the request was applied, so its outcome is unknown to the client. */
  readonly failAfterApply: boolean;
  /**
   * Per accepted cancel-all, increase-nonce or withdraw: fail it when it is processed, with a
   * `fail` report on the private stream and nothing applied (what the venue does when such a
   * request fails after its 200, REFERENCE §3.3).
   */
  readonly queuedActionFailRate: number;
  /** Per accepted cancel-all, increase-nonce or withdraw: never process it and say nothing (200 and silence). */
  readonly queuedActionDropRate: number;
  /**
   * Per accepted placement: fail it when it is processed, with a `fail` report and nothing applied
   * (the order never rests; its locked funds go back).
   */
  readonly queuedOrderFailRate: number;
  /** Per accepted single cancel: fail it when it is processed (`fail` report; the order keeps resting). */
  readonly queuedCancelFailRate: number;
  /**
   * Per accepted cancel of a resting order: a taker fills part of it just before the cancel is
   * processed (the cancel's 200 is already out: the fill races it).
   */
  readonly cancelRaceFillRate: number;
  /**
   * Per WebSocket message: send it as 2–4 fragments split at random byte offsets (inside a
   * multi-byte character too), as a text or a binary message (REFERENCE §3: both may come).
   */
  readonly wsFragmentRate: number;
  /** Per rollup of the Starknet double: its transaction reverts (no Trade event; the fills stay unsettled on chain). */
  readonly rollupFailRate: number;
  /** HTTP faults apply to these paths only; empty = every path except `/sign/*`. */
  readonly paths: readonly string[];
  /**
   * Market-data faults (`snap` skip and duplicate, the mute) strike only these pairs' books
   * (`BASE-QUOTE`, e.g. `STRK-USDC`: both its books); empty = every book. One pair's stream
   * faulted while another's, on the same connection, flows on (chaos runs with several pairs on
   * one account).
   */
  readonly streamPairs: readonly string[];
}

export const NO_FAULTS: FaultSettings = {
  wsDropRate: 0,
  marketMuteRate: 0,
  snapSkipRate: 0,
  snapDuplicateRate: 0,
  reportDuplicateRate: 0,
  reportReorderRate: 0,
  httpDelayRate: 0,
  httpDelayMs: 0,
  httpErrorRate: 0,
  httpRateLimitRate: 0,
  httpResetRate: 0,
  rateLimitSleepMs: 1000,
  failAfterApply: false,
  queuedActionFailRate: 0,
  queuedActionDropRate: 0,
  queuedOrderFailRate: 0,
  queuedCancelFailRate: 0,
  cancelRaceFillRate: 0,
  wsFragmentRate: 0,
  rollupFailRate: 0,
  paths: [],
  streamPairs: [],
};

/** How often each fault actually struck since the sim started (a fault window may catch nothing). */
export interface FaultStats {
  queuedActionsFailed: number;
  queuedActionsDropped: number;
  ordersFailed: number;
  cancelsFailed: number;
  cancelRaceFills: number;
  fragmentedMessages: number;
  rollupsFailed: number;
}

/** What to do to one HTTP request. */
export interface HttpFault {
  readonly delayMs: number;
  readonly failure: { readonly status: 500 | 429 | 'reset'; readonly afterApply: boolean } | undefined;
}

/** The programmatic fault switchboard (tests) behind the `--fault-*` flags. */
export class FaultController {
  #settings: FaultSettings;
  /** Counts of faults that struck (chaos reports say which fault windows did something). */
  readonly stats: FaultStats = { queuedActionsFailed: 0, queuedActionsDropped: 0, ordersFailed: 0, cancelsFailed: 0, cancelRaceFills: 0, fragmentedMessages: 0, rollupsFailed: 0 };
  #dropAll: () => number = () => 0;

  constructor(
    private readonly rng: Rng,
    initial: Partial<FaultSettings> = {},
  ) {
    this.#settings = { ...NO_FAULTS, ...initial };
  }

  get settings(): FaultSettings {
    return this.#settings;
  }

  /** Changes some settings; the rest stay. */
  set(partial: Partial<FaultSettings>): void {
    this.#settings = { ...this.#settings, ...partial };
  }

  /** Back to no faults. */
  reset(): void {
    this.#settings = { ...NO_FAULTS };
  }

  /** Closes every WebSocket now; returns how many were closed. */
  dropAllConnections(): number {
    return this.#dropAll();
  }

  /** Wires {@link dropAllConnections} to the socket hub (done by the server). */
  attachDropper(dropAll: () => number): void {
    this.#dropAll = dropAll;
  }

  /** True with probability `rate` (never draws when the rate is 0, keeping sequences stable). */
  roll(rate: number): boolean {
    if (rate <= 0) return false;
    if (rate >= 1) return true;
    return this.rng.next() < rate;
  }

  /** What to do to an accepted queued action when it is processed: fail it, drop it, or nothing. */
  /** True when the next rollup transaction is to revert (`rollupFailRate`). */
  rollupFails(): boolean {
    const fails = this.roll(this.#settings.rollupFailRate);
    if (fails) this.stats.rollupsFailed++;
    return fails;
  }

  queuedActionFault(): 'fail' | 'drop' | undefined {
    if (this.roll(this.#settings.queuedActionFailRate)) {
      this.stats.queuedActionsFailed++;
      return 'fail';
    }
    if (this.roll(this.#settings.queuedActionDropRate)) {
      this.stats.queuedActionsDropped++;
      return 'drop';
    }
    return undefined;
  }

  /** True when an accepted placement or single cancel is to fail as it is processed. */
  queuedRequestFails(kind: 'order' | 'cancel'): boolean {
    const fails = this.roll(kind === 'order' ? this.#settings.queuedOrderFailRate : this.#settings.queuedCancelFailRate);
    if (fails && kind === 'order') this.stats.ordersFailed++;
    if (fails && kind === 'cancel') this.stats.cancelsFailed++;
    return fails;
  }

  /**
   * How to send one WebSocket message: undefined = whole, else the byte offsets it is cut at and
   * whether it goes as a binary message.
   */
  fragmentation(byteLength: number): { readonly cuts: number[]; readonly binary: boolean } | undefined {
    if (byteLength < 2 || !this.roll(this.#settings.wsFragmentRate)) return undefined;
    const pieces = 2 + this.rng.int(3);
    const cuts = new Set<number>();
    while (cuts.size < Math.min(pieces - 1, byteLength - 1)) cuts.add(1 + this.rng.int(byteLength - 1));
    this.stats.fragmentedMessages++;
    return { cuts: [...cuts].sort((a, b) => a - b), binary: this.rng.next() < 0.5 };
  }

  /** True when market-data faults strike the book with this key (`BASE-QUOTE/eco|router`). */
  strikesStreamOf(marketKey: string): boolean {
    const pairs = this.#settings.streamPairs;
    return pairs.length === 0 || pairs.some((pair) => marketKey.startsWith(`${pair}/`));
  }

  /** The fault, if any, for an HTTP request on `path`. */
  httpFault(path: string): HttpFault | undefined {
    const settings = this.#settings;
    const applies = settings.paths.length === 0 ? !path.startsWith('/sign/') : settings.paths.includes(path);
    if (!applies) return undefined;
    const delayMs = this.roll(settings.httpDelayRate) ? settings.httpDelayMs : 0;
    let failure: HttpFault['failure'];
    if (this.roll(settings.httpErrorRate)) failure = { status: 500, afterApply: settings.failAfterApply };
    else if (this.roll(settings.httpRateLimitRate)) failure = { status: 429, afterApply: settings.failAfterApply };
    else if (this.roll(settings.httpResetRate)) failure = { status: 'reset', afterApply: settings.failAfterApply };
    if (delayMs === 0 && failure === undefined) return undefined;
    return { delayMs, failure };
  }
}
