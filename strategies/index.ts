/**
 * Public surface of `strategies/`: the registry of quoting strategies (pure functions of market
 * view, inventory and params → desired quotes), their formulas and env keys, and the estimators
 * the engine feeds to build the `MarketView`.
 */
import type { StrategyDefinition } from '../src/core/index.ts';
import { AVELLANEDA_STOIKOV } from './avellaneda-stoikov.ts';
import { GLFT } from './glft.ts';
import { LADDER } from './ladder.ts';
import { TICK_GRID } from './tick-grid.ts';
import { XEMM } from './xemm.ts';

/**
 * Every strategy by the name `STRATEGY=` selects. Params are `unknown` here: feed `create` only
 * what the same definition's `parseParams` returned.
 */
export const STRATEGIES: Readonly<Record<string, StrategyDefinition>> = {
  [LADDER.name]: LADDER,
  [AVELLANEDA_STOIKOV.name]: AVELLANEDA_STOIKOV,
  [GLFT.name]: GLFT,
  [XEMM.name]: XEMM,
  [TICK_GRID.name]: TICK_GRID,
};

/** Strategy names, in documentation order. */
export const STRATEGY_NAMES: readonly string[] = Object.keys(STRATEGIES);

/** The definition registered under `name` (exact, case-sensitive), or undefined. */
export function getStrategyDefinition(name: string): StrategyDefinition | undefined {
  return Object.hasOwn(STRATEGIES, name) ? STRATEGIES[name] : undefined;
}

export {
  AVELLANEDA_STOIKOV,
  AVELLANEDA_STOIKOV_KEYS,
  computeAvellanedaStoikov,
  computeTimeLeftS,
  createAvellanedaStoikov,
  explainAvellanedaStoikov,
  type AvellanedaStoikovExplanation,
  type AvellanedaStoikovInput,
  type AvellanedaStoikovParams,
  type AvellanedaStoikovResult,
  type KappaSource,
} from './avellaneda-stoikov.ts';
export {
  GLFT,
  GLFT_KEYS,
  computeGlftCoefficients,
  computeGlftQuote,
  createGlft,
  explainGlft,
  type GlftCoefficientInput,
  type GlftCoefficients,
  type GlftExplanation,
  type GlftParams,
  type GlftQuote,
  type GlftQuoteInput,
} from './glft.ts';
export { LADDER, LADDER_KEYS, createLadder, explainLadder, type LadderExplanation, type LadderParams } from './ladder.ts';
export { computeInventoryRatio, computeSkewRatios, computeTotalLadderSize, type SkewRatios } from './inventory-skew.ts';
export { PRICE_SOURCES, finalizeQuotes, referencePrice, type PriceSource, type StrategyErrorCode } from './passive-quotes.ts';
export type { ExplainedStrategy, QuoteExplanation } from './explained.ts';
export * from './estimators/index.ts';
export { TICK_GRID, TICK_GRID_KEYS, createTickGrid, explainTickGrid, type TickGridExplanation, type TickGridParams } from './tick-grid.ts';
export { XEMM, XEMM_KEYS, createXemm, explainXemm, type XemmExplanation, type XemmLevel, type XemmParams } from './xemm.ts';
export * from './signals/index.ts';
