/** Public surface of the local order book. */
export { LocalBook, type BookDelta, type BookLevelUnits, type DeltaResult } from './local-book.ts';
