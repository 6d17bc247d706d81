/** Public surface of the WS stream. */
export { MarketStream, DEFAULT_STREAM_TIMING, type ListenKeySource, type MarketStreamOptions, type StreamHandlers, type StreamTiming } from './market-stream.ts';
export { BookSync, type BookSyncOptions } from './book-sync.ts';
export * from './messages.ts';
