/** What `akira-mm preflight` checks and reports (issue 11 item 6). */
import type { ChainInfo, Clock, Logger, Pair, Rng, TokenInfo } from '../../core/index.ts';
import type { LoginSigner } from '../client/index.ts';

/** One line of the report. `skip` is neither good nor bad: the check could not apply. */
export interface CheckResult {
  readonly name: string;
  readonly status: 'pass' | 'fail' | 'skip';
  readonly detail: string;
  /** What to change when it failed (an env key, a deposit, a command). */
  readonly fix?: string;
}

/** What the bot would quote, to hold the balances and caps against. */
export interface QuotePlan {
  /**
   * One order's size: base units (the strategy's ORDER_SIZE), or a notional in quote units (its
   * ORDER_NOTIONAL, turned into base at the mid when the balances are checked).
   */
  readonly orderSize: { readonly kind: 'base'; readonly qtyUnits: bigint } | { readonly kind: 'notional'; readonly quoteUnits: bigint };
  /** Orders per side (LADDER_LEVELS; 1 for the model strategies). */
  readonly levels: number;
  /** RISK_MAX_ORDER_NOTIONAL in quote units; 0 = none. */
  readonly maxOrderNotionalUnits: bigint;
  /** RISK_MAX_TOTAL_NOTIONAL in quote units; 0 = none. */
  readonly maxTotalNotionalUnits: bigint;
  /** RISK_ONCHAIN_KILL: the nonce increase must be affordable. */
  readonly onchainKill: boolean;
  /** The env key of the order size in effect, for fixes ("LADDER_ORDER_SIZE", "LADDER_ORDER_NOTIONAL"). */
  readonly orderSizeKey: string;
}

/** The setup under test. */
export interface PreflightTarget {
  readonly httpUrl: string;
  readonly wsUrl: string;
  /** The chain with the pair file's contract overrides. */
  readonly chain: ChainInfo;
  readonly account: bigint;
  readonly signer: LoginSigner;
  readonly pair: Pair;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
  readonly ecosystemBook: boolean;
  readonly feeToken: TokenInfo;
  readonly gasPriceMultiplier: number;
  readonly starknetRpcUrl: string | undefined;
  readonly plan: QuotePlan;
}

/** How patient and strict the checks are; defaults in {@link DEFAULT_PREFLIGHT_LIMITS}. */
export interface PreflightLimits {
  /** Wait for the first book frame on the WS, ms. */
  readonly firstFrameTimeoutMs: number;
  /** Largest accepted difference between our clock and the venue's timestamps, ms. */
  readonly maxClockSkewMs: number;
  /** Wait for each report of the order test, ms. */
  readonly orderTestTimeoutMs: number;
}

export const DEFAULT_PREFLIGHT_LIMITS: PreflightLimits = { firstFrameTimeoutMs: 10_000, maxClockSkewMs: 2_000, orderTestTimeoutMs: 10_000 };

/** Collaborators. */
export interface PreflightDeps {
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
}
