/** Public surface of the REST client. */
export { RestClient, DEFAULT_RETRY, type RestClientOptions, type RetryOptions, type OrderMode, type OrdersQuery } from './rest-client.ts';
export { UndiciTransport, DEFAULT_HTTP_OPTIONS, type HttpOptions, type HttpRequest, type HttpResponse, type HttpTransport } from './http.ts';
export { AuthSession, type LoginSigner } from './auth.ts';
export { ExchangeError, VENUE_ERROR_NAMES, hasVenueError, isOutcomeUnknown, venueErrorNameOf, type ExchangeErrorCode, type VenueErrorName } from './errors.ts';
export { RateLimitCounter, type RateLimitSink } from './rate-limits.ts';
export { backoffDelayMs, rateLimitDelayMs, suggestedSleepMs, type BackoffPolicy } from './backoff.ts';
export { postResolved, type PostOutcome, type ResolveOptions } from './resolve.ts';
export * from './responses.ts';
export { FAST_SIGN_VALID_HOURS, fastSignMessageHash, fastSignTypedData, parseFastSignChallenge, type FastSignChallenge } from './fast-sign.ts';
