/** Public surface of `src/engine/hedge`: the hedger and what the engine and the CLI wire it with. */
export { Hedger, type HedgeObserver, type HedgerOptions } from './hedger.ts';
export type { HedgerSettings } from './hedger-settings.ts';
export { HedgeExposure, pairToVenue, venueToPair, type FillInput, type HedgeRecord, type UnitScale } from './exposure.ts';
export { FileHedgeJournal, MemoryHedgeJournal, replayJournal, type HedgeJournal, type HedgeJournalRecord } from './hedge-journal.ts';
export { planHedge, type HedgePlan, type HedgeSizingInput } from './hedge-sizing.ts';
export { HedgeStats, type HedgeFigures } from './hedge-stats.ts';
export { gatePlans, withoutOffSides } from './gate.ts';
export { hedgeMarketView, isHedgeable } from './view.ts';
export { createHedgeMetrics, type HedgeMetrics } from './metrics.ts';
export type { EngineHedge, HedgeEngineHooks, HedgeStatus, SideState } from './link.ts';
