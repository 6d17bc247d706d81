/** Public surface of `src/core`: domain types and pure helpers every layer shares. */
export * from './errors.ts';
export * from './types.ts';
export * from './chains.ts';
export * from './money.ts';
export * from './rules.ts';
export * from './clock.ts';
export * from './rng.ts';
export * from './book.ts';
export * from './strategy.ts';
export * from './logger.ts';
export * from './secret.ts';
export * from './closest-name.ts';
export * from './venue.ts';
export * from './reference-feed.ts';
export * from './hedge-venue.ts';
export * from './hedge-rules.ts';
export * from './settings/index.ts';
