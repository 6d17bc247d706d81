/**
 * Errors of the exchange client. One class, {@link ExchangeError}, with a stable `code` to branch
 * on (STYLE.md "typed errors with stable codes"); the venue's own error name (REFERENCE §4) is kept
 * as `venueError` and the raw body as `rawBody`, so a rejected order says exactly what the venue
 * said. Bad parameters caught before sending, venue rejections and network trouble stay apart.
 */
import { MmError } from '../../core/index.ts';

/** Codes raised by the REST client and the WS stream. Never renamed. */
export type ExchangeErrorCode =
  /** The venue refused the request with an error name or text (4xx other than 401/404/429). */
  | 'EXCHANGE_REJECTED'
  /** 404: the order or object does not exist. */
  | 'EXCHANGE_NOT_FOUND'
  /** 401 even after one fresh login, or a login that failed. */
  | 'EXCHANGE_UNAUTHORIZED'
  /** 429 still after the allowed retries. */
  | 'EXCHANGE_RATE_LIMITED'
  /** 5xx: the venue failed; for a POST the outcome is unknown. */
  | 'EXCHANGE_SERVER_ERROR'
  /** Connection refused, reset or timed out. `mayHaveReachedVenue` says whether a POST may have landed. */
  | 'EXCHANGE_NETWORK'
  /** The body was not the JSON we expected; `rawBody` holds it. */
  | 'EXCHANGE_MALFORMED'
  /** A parameter was refused before sending. */
  | 'EXCHANGE_BAD_REQUEST'
  /** The pair or book is not served by the venue. */
  | 'EXCHANGE_UNSUPPORTED_PAIR'
  /** The client was closed. */
  | 'EXCHANGE_CLOSED'
  /** A WS subscribe/unsubscribe was refused or not acknowledged in time. */
  | 'WS_SUBSCRIBE_FAILED'
  /** The WS connection closed while a request waited for its ack. */
  | 'WS_CLOSED'
  /** The Starknet node (STARKNET_RPC_URL) could not be asked. */
  | 'EXCHANGE_RPC'
  /** A contract constant of ours disagrees with the chain (fee recipient, bound signer, chain id). */
  | 'EXCHANGE_CONTRACT_MISMATCH'
  /** An on-chain transaction we would send is refused before sending (its simulation reverts, a precondition fails). */
  | 'EXCHANGE_CHAIN_REFUSED'
  /** An on-chain transaction we sent was included but reverted. */
  | 'EXCHANGE_TX_REVERTED';

export { VENUE_ERROR_NAMES, type VenueErrorName } from '../wire/errors.ts';
import { VENUE_ERROR_NAMES, type VenueErrorName } from '../wire/errors.ts';

const NAME_SET: ReadonlySet<string> = new Set(VENUE_ERROR_NAMES);

/** The §4 name in an error text: the whole text, or its first SCREAMING_SNAKE word that is one. */
export function venueErrorNameOf(text: string | undefined): VenueErrorName | undefined {
  if (text === undefined) return undefined;
  if (NAME_SET.has(text)) return text as VenueErrorName;
  for (const word of text.split(/[^A-Z_]+/)) if (NAME_SET.has(word)) return word as VenueErrorName;
  return undefined;
}

/** Details of an exchange error; all optional except the endpoint. */
export interface ExchangeErrorDetails {
  /** "GET /user/order" */
  readonly endpoint: string;
  readonly status?: number;
  /** The venue's `error` text as sent. */
  readonly venueError?: string;
  /** The venue's numeric `code` (informative only: never branch on it, SPEC §2). */
  readonly venueCode?: number;
  /** The response body as received (bodies never contain our secrets). */
  readonly rawBody?: string;
  /** For network errors: false only when the request surely never left (connect refused). */
  readonly mayHaveReachedVenue?: boolean;
  /** Suggested wait before retrying, from a 429. */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

/** An error of the exchange client or stream. */
export class ExchangeError extends MmError<ExchangeErrorCode> {
  readonly endpoint: string;
  readonly status: number | undefined;
  readonly venueError: string | undefined;
  /** The §4 name when `venueError` carries one. */
  readonly venueErrorName: VenueErrorName | undefined;
  readonly venueCode: number | undefined;
  readonly rawBody: string | undefined;
  readonly mayHaveReachedVenue: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(code: ExchangeErrorCode, message: string, details: ExchangeErrorDetails) {
    super(code, `${details.endpoint}: ${message}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ExchangeError';
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.venueError = details.venueError;
    this.venueErrorName = venueErrorNameOf(details.venueError);
    this.venueCode = details.venueCode;
    this.rawBody = details.rawBody;
    this.mayHaveReachedVenue = details.mayHaveReachedVenue ?? true;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/**
 * True when a state-changing request may or may not have been applied: a timeout or reset after
 * sending, a 5xx, or an answer we could not parse. Such outcomes are resolved by querying the locally computed hash (SPEC §2),
 * never by sending again blindly.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ExchangeError)) return false;
  // A body we cannot read says nothing about whether the request was applied.
  if (error.code === 'EXCHANGE_SERVER_ERROR' || error.code === 'EXCHANGE_MALFORMED') return true;
  return error.code === 'EXCHANGE_NETWORK' && error.mayHaveReachedVenue;
}

/** True when `error` is an ExchangeError carrying this venue error name. */
export function hasVenueError(error: unknown, name: VenueErrorName): boolean {
  return error instanceof ExchangeError && error.venueErrorName === name;
}
