/** Public surface of `strategies/estimators`: the market estimators and the view builder. */
export { VolatilityEstimator, type VolatilityOptions } from './volatility.ts';
export { TradeRateEstimator, type TradeRateOptions, type TradeRates } from './trade-rate.ts';
export { ArrivalIntensityEstimator, type ArrivalIntensityOptions, type ArrivalTrade } from './arrival-intensity.ts';
export { shrinkArrival, type ArrivalPrior, type ShrunkArrival } from './arrival-prior.ts';
export {
  MarketEstimators,
  buildMarketView,
  type EstimatorValues,
  type MarketEstimatorOptions,
  type MarketViewInput,
  type TickerNumbers,
  type TopLevel,
} from './market-view.ts';
