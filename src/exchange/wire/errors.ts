/**
 * The venue's error names (REFERENCE §4), in the list's order: the contract the client branches
 * on and the embedded exchange answers with (SPEC §2). The sim's numeric code is 1 + the index,
 * so never reorder.
 */
export const VENUE_ERROR_NAMES = [
  'ORDER_ALREADY_IN_PROGRESS',
  'ACTION_ALREADY_IN_PROGRESS',
  'NO_ORDERS_WITH_THIS_ID',
  'NOT_THIS_CLIENT_ORDER',
  'WITHDRAWING',
  'NOT_ENOUGH_BALANCE',
  'FAILED_SIGN_CHECK',
  'UNSUPPORTED_TRADED_PAIR',
  'WRONG_FLAGS_FOR_LIMIT_ORDER',
  'WRONG_FLAGS_FOR_MARKET_ORDER',
  'WRONG_FEE_TOKEN',
  'WRONG_PBIPS',
  'WRONG_GAS_PER_ACTION',
  'WRONG_MAX_GAS_PRICE',
  'WRONG_CONVERSION_RATE',
  'NOT_FOUND',
  'WRONG_INPUT',
  'STALE_ORDER',
  'WRONG_TIMESTAMP',
  'ECOSYSTEM_ORDER_ISSUE',
  'WRONG_ROUTER',
  'NO_ROUTER',
  'WRONG_NONCE',
  'WRONG_FEE_RECIPIENT',
] as const;

/** One of the venue's error names. */
export type VenueErrorName = (typeof VENUE_ERROR_NAMES)[number];
