/** Signals against adverse selection (issue 24): pure stages over a market's book and trades, and the alpha term. */
export { bookImbalance, type BookImbalanceOptions, type SignalDepth, type SignalLevel } from './book-imbalance.ts';
export { DecayingSum } from './decaying-sum.ts';
export { OrderFlowImbalance, orderFlowContribution, type SignalTop } from './order-flow-imbalance.ts';
export { TradeFlow } from './trade-flow.ts';
export { VolatilityRegime, regimeSizeFactor, regimeWidenFactor, shrinkByRegime, widenByRegime, type VolatilityRegimeValue } from './volatility-regime.ts';
export { ALPHA_KEY_OF, ALPHA_SIGNALS, SignalSet, alphaBps, alphaWeights, isAlphaOn, predictedMoveBps, type AlphaSignal, type SignalValues } from './signal-set.ts';
export { Toxicity, shrinkToxicSides, toxicSizeFactor, widenToxicSides, type ToxicityValue } from './toxicity.ts';
export { ReferenceMove, SideHold, laggingSide, staleSide } from './reference-move.ts';
export { scaleSizes } from './scale-sizes.ts';
export { placeInQueue, type QueuePlacement, type QueuePlacementOptions, type QueueTouch } from './queue-placement.ts';
