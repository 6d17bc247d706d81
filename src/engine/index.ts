/** Public surface of `src/engine`: the market-making engine over the Venue port. */
export { MarketMaker, type EngineOptions, type EngineStatus } from './engine.ts';
export { DEFAULT_ENGINE_SETTINGS, type EngineSettings, type StartupOrderPolicy } from './settings.ts';
export { diffQuotes, type DiffOptions, type LiveQuote, type QuoteDiff, type RoundedQuote } from './diff.ts';
export { clipQuotes, DrawdownGuard, type HaltReason, type InventoryPosition, type RiskLimits } from './risk.ts';
export { filterByEdge, gasCostQuote, isReplacementWorthIt, keepReplacementsThatPay, quoteEdgeBps, type EdgeContext } from './edge.ts';
export { Ledger, feeOnReceipt, fillEffect, type FillEffect, type LedgerOptions, type PnlSnapshot } from './ledger.ts';
export { MarkoutTracker, MARKOUT_HORIZONS_MS, type MarkoutSummary } from './markouts.ts';
export { OrderTable, type FillIncrement, type TrackedOrder } from './order-table.ts';
export { combineObservers, type EngineObserver } from './observer.ts';
export { createEngineMetrics, type EngineMetrics, type MetricsContext } from './metrics.ts';
export { startMetricsServer, type MetricsServer } from './metrics-server.ts';
export { FileJournal, NullJournal, parseJournal, unresolvedFromRecords, type Journal, type JournalRecord, type JournaledOrder } from './journal.ts';
