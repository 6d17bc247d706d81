/**
 * Errors of the Binance market-data client, one class with a stable `code` (STYLE.md). Binance's
 * own numeric error code (e.g. -1121 "Invalid symbol.") is kept as `venueCode` for logs only:
 * callers branch on `code`.
 */
import { MmError } from '../../core/index.ts';

/** Codes raised by `src/markets/binance`. Never renamed. */
export type BinanceErrorCode =
  /** A frame or a response body that is not what Binance documents; the text is in the message. */
  | 'BINANCE_MALFORMED'
  /** Binance does not list the symbol (HTTP 400, code -1121). */
  | 'BINANCE_BAD_SYMBOL'
  /** HTTP 429 (back off) or 418 (IP banned); `retryAfterMs` says how long. */
  | 'BINANCE_RATE_LIMITED'
  /** Any other non-2xx answer. */
  | 'BINANCE_HTTP'
  /** Connection refused, reset or timed out. */
  | 'BINANCE_NETWORK'
  /** The API key, its signature or the key file was refused or is unusable (trading). */
  | 'BINANCE_AUTH'
  /** The venue refused a signed request (its `code` is in `venueCode`); nothing was executed. */
  | 'BINANCE_REJECTED'
  /** A signed request's outcome is unknown (5xx, -1006, -1007, a lost connection): query, never resend. */
  | 'BINANCE_UNKNOWN_OUTCOME';

/** Details kept beside the message. */
export interface BinanceErrorDetails {
  readonly status?: number;
  /** Binance's `code` field (informative only). */
  readonly venueCode?: number;
  /** The wait a 429/418 asked for (`Retry-After`), ms. */
  readonly retryAfterMs?: number;
  /** Binance's `msg` (trading: the matching engine's reason for a -2010). */
  readonly venueMessage?: string;
  readonly cause?: unknown;
}

/** A failure talking to Binance (or a server speaking its protocol). */
export class BinanceError extends MmError<BinanceErrorCode> {
  readonly status: number | undefined;
  readonly venueCode: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly venueMessage: string | undefined;

  constructor(code: BinanceErrorCode, message: string, details: BinanceErrorDetails = {}) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'BinanceError';
    this.status = details.status;
    this.venueCode = details.venueCode;
    this.retryAfterMs = details.retryAfterMs;
    this.venueMessage = details.venueMessage;
  }
}
