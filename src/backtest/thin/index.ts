/**
 * A thin venue priced off a recorded deep market (`backtest --venue thin`, docs/thin-venue.md):
 * the exchange a `ReplayVenue` drives in place of the recorded book, its options and defaults,
 * and its summary keys.
 */
export { ThinExchange, thinExchangeFactory } from './thin-exchange.ts';
export { DEFAULT_THIN_VENUE, LAYERAKIRA_FEES, checkThinExchangeOptions, type ThinExchangeOptions } from './thin-options.ts';
export { summarizeThinFills, type ThinExchangeStats, type ThinSummary } from './thin-summary.ts';
