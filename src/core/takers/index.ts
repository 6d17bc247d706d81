/**
 * The taker models of a thin venue priced off a deep reference market (MM-NOTES §7,
 * docs/thin-venue.md): uninformed takers thinned from the reference's trades, arbitrageurs who take
 * stale quotes, a background maker and a competing maker. Pure and seeded by the caller: the backtest's thin venue
 * (`src/backtest/thin/`) and the embedded exchange's flow share them.
 */
export * from './parameters.ts';
export * from './uninformed.ts';
export * from './arbitrage.ts';
export * from './background-maker.ts';
export * from './competing-maker.ts';
export * from './delay-line.ts';
export * from './venue-agenda.ts';
export * from './reference-touch.ts';
