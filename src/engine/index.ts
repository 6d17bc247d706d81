/** Public surface of `src/engine`: the market-making engine over the Venue port. */
export { MarketMaker, type EngineOptions, type EnginePlacement, type StopOutcome } from './engine.ts';
export { startEngines, type PairStart } from './start.ts';
export { Account, BudgetError, NO_ACCOUNT_LIMITS, type AccountLimits, type AccountMember, type AccountOptions, type AccountOrder, type AccountPair, type AccountSnapshot, type AccountVenue, type PairFunds } from './account.ts';
export type { EngineStatus, PathStatus, ScorecardSnapshot } from './status.ts';
export {
  DEFAULT_ENGINE_SETTINGS,
  engineSettingsOf,
  type EngineKeyValues,
  type EngineSettings,
  type FairPriceSource,
  type InventoryTarget,
  type OutboundBudget,
  type RequoteTolerance,
  type StartupOrderPolicy,
} from './settings.ts';
export { aggressionExcess, diffQuotes, mayStandIn, type DiffOptions, type LiveQuote, type QuoteDiff, type RoundedQuote } from './pipeline/diff.ts';
export {
  AUTO_DRAWDOWN_FRACTION,
  AUTO_INVENTORY_ORDERS,
  admissibleQuantity,
  clipQuotes,
  isOverInventoryCap,
  orderSizeUnitsOf,
  resolveRiskLimits,
  type ConfiguredRiskLimits,
  type ExposedOrder,
  type Holdings,
  type InventoryPosition,
  type RiskLimits,
} from './pipeline/caps.ts';
export { filterByEdge, gasCostQuote, isReplacementWorthIt, keepReplacementsThatPay, quoteEdgeBps, reducesInventory, type EdgeContext } from './pipeline/edge.ts';
export { quotePriceInTicks, quotesToTicks, roundPriceToTick, tickSizeNumber, type Touch } from './pipeline/ticks.ts';
export { QuotePipeline, runQuotePipeline, sameDesiredQuotes, type PipelineInput } from './pipeline/quote-pipeline.ts';
export { TokenBucket } from './orders/budget.ts';
export { OrderManager, type OrderStats } from './orders/order-manager.ts';
export { rankActions, type Action, type ExecutionContext, type SidePlan } from './orders/priorities.ts';
export { DrawdownGuard } from './safety/drawdown.ts';
export { ENGINE_STATES, OPERATOR_PAUSE, Safety, type EngineState, type HaltReason, type PauseReason } from './safety/safety.ts';
export { Scorecard, type PnlSplit, type QuotingSample, type QuotingScores } from './scorecard.ts';
export { Ledger, feeOnReceipt, fillEffect, type FillEffect, type LedgerOptions, type PnlSnapshot } from './ledger.ts';
export { MarkoutTracker, MARKOUT_HORIZONS_MS, type MarkoutSummary } from './markouts.ts';
export { OrderTable, toLiveQuote, type FillIncrement, type TrackedOrder } from './orders/order-table.ts';
export { combineObservers, type EngineObserver } from './observer.ts';
export { createEngineMetrics, type EngineMetrics, type MetricsContext } from './metrics.ts';
export { startMetricsServer, type MetricsServer } from './metrics-server.ts';
export { STARTING_HEALTH, accountHealth, type Health, type PairHealth } from './health.ts';
export { GuardedJournal, NullJournal, parseJournal, unresolvedFromRecords, type Journal, type JournalRecord, type JournaledOrder } from './orders/journal.ts';
export { AccountJournal, JournalOwnerError, fillsPathOf, isSameOwner, type AccountJournalOptions, type JournalOwner } from './orders/account-journal.ts';
export * from './hedge/index.ts';
