/**
 * Every tunable of the embedded exchange with its default, in one object (STYLE.md: options
 * documented once, next to their defaults). Units are in the names.
 */
import { DEFAULT_RATE_LIMIT, type RateLimitSettings } from './rate-limit.ts';

/** Gas steps per action (SPEC §5, REFERENCE §5): served by `/info/steps_specifications`. */
export interface StepsSettings {
  readonly swapEcosystem: number;
  readonly swapRouter: number;
  readonly withdraw: number;
  readonly nonce: number;
}

/** Tunables of the venue's rules and timing. */
export interface SimSettings {
  readonly steps: StepsSettings;
  /** Default per-account trade fees in pbips (1e-6): maker 200 = 2 bps, taker 1000 = 10 bps. */
  readonly makerPbips: number;
  readonly takerPbips: number;
  /** Router fees served by `/info/router_details`. */
  readonly routerMakerPbips: number;
  readonly routerTakerPbips: number;
  /** Starting gas price in fri (STRK base units) per step; it wanders when flow is on. */
  readonly gasPriceFri: bigint;
  /** Relative distance an order's conversion rate may be from the sim's own (0.1 = 10 %). */
  readonly conversionRateTolerance: number;
  /** How long an increase-nonce request waits in the queue before it applies (SPEC §5). */
  readonly nonceDelayMs: number;
  /** Seconds an order's `created_at` may be ahead of the venue clock (WRONG_TIMESTAMP). */
  readonly maxClockAheadSec: number;
  /** Seconds an order's `created_at` may lag the venue clock (WRONG_TIMESTAMP: "check your clock"). */
  readonly maxClockBehindSec: number;
  /** Login challenge lifetime. */
  readonly challengeTtlMs: number;
  /** JWT lifetime. */
  readonly jwtTtlMs: number;
  /** Listen-key lifetime; re-calling `/user/listen_key` extends it (SPEC §1: 30 min). */
  readonly listenKeyTtlMs: number;
  /** WebSocket ping period (SPEC §4: 15 s). */
  readonly wsPingIntervalMs: number;
  /** How often resting orders are checked for expiry and listen keys for lifetime. */
  readonly sweepIntervalMs: number;
  /** Largest POST body accepted. */
  readonly maxBodyBytes: number;
  /** Page size cap of `/user/orders` (REFERENCE §1.2 #13). */
  readonly maxOrdersPageSize: number;
  /** Per-account limit on state-changing requests (429 past it); on by default, `perSecond` 0 = off. */
  readonly rateLimit: RateLimitSettings;
}

export const DEFAULT_SETTINGS: SimSettings = {
  steps: { swapEcosystem: 150, swapRouter: 250, withdraw: 150, nonce: 100 },
  makerPbips: 200,
  takerPbips: 1000,
  routerMakerPbips: 0,
  routerTakerPbips: 500,
  gasPriceFri: 40_000_000_000_000n,
  conversionRateTolerance: 0.1,
  nonceDelayMs: 1_000,
  maxClockAheadSec: 30,
  maxClockBehindSec: 600,
  challengeTtlMs: 5 * 60_000,
  jwtTtlMs: 24 * 3_600_000,
  listenKeyTtlMs: 30 * 60_000,
  wsPingIntervalMs: 15_000,
  sweepIntervalMs: 1_000,
  maxBodyBytes: 64 * 1024,
  maxOrdersPageSize: 20,
  rateLimit: DEFAULT_RATE_LIMIT,
};

/** Settings with some defaults overridden (steps merged field by field). */
export function resolveSettings(overrides: Partial<Omit<SimSettings, 'steps'>> & { steps?: Partial<StepsSettings> } = {}): SimSettings {
  return { ...DEFAULT_SETTINGS, ...overrides, steps: { ...DEFAULT_SETTINGS.steps, ...overrides.steps } };
}
